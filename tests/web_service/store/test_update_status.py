"""Whether an installed plugin has an update: each status, each comparison rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_service.store.install_support import MONO, OWNER, mono_source, push_mono
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files, registry_entry
from web_service.store.errors import StoreError
from web_service.store.install.folders import InstallSource, install_plugin
from web_service.store.update_status import check_update


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        push_mono(running, "clock")
        push_mono(running, "ticker")
        yield running


@pytest.fixture
def plugins_dir(tmp_path: Path, host: RepoHost) -> Path:
    folder = tmp_path / "plugin-repos"
    install_plugin(mono_source(host, "clock", last_updated="2026-01-01"), folder,
                   api_url=host.api_url)
    return folder


def _entry(host: RepoHost, **more: Any) -> dict[str, Any]:
    return registry_entry("clock", host.repo_url(OWNER, MONO), plugin_path="plugins/clock",
                          **more)


def test_unchanged_plugin_is_up_to_date(host: RepoHost, plugins_dir: Path) -> None:
    check = check_update(plugins_dir / "clock", _entry(host), api_url=host.api_url)
    assert check.status == "up_to_date"
    assert check.remote["tree_sha"] == host.tree_sha(OWNER, MONO, "plugins/clock")


def test_another_plugin_changing_in_the_monorepo_is_not_an_update(
        host: RepoHost, plugins_dir: Path) -> None:
    push_mono(host, "ticker", version="9.0.0")
    check = check_update(plugins_dir / "clock", _entry(host), api_url=host.api_url)
    assert check.status == "up_to_date"


def test_changed_files_are_an_update_even_with_the_same_version(
        host: RepoHost, plugins_dir: Path) -> None:
    push_mono(host, "clock", colour=(0, 0, 255))
    check = check_update(plugins_dir / "clock", _entry(host), api_url=host.api_url)
    assert (check.status, check.reason) == ("update_available", "the plugin's files changed")
    assert host.asked("/git/trees/") == 2  # the install's and this one


def test_version_decides_when_the_api_is_rate_limited(host: RepoHost,
                                                      plugins_dir: Path) -> None:
    host.rate_limited = True
    newer = check_update(plugins_dir / "clock", _entry(host, version="1.10.0"),
                         api_url=host.api_url)
    assert newer.status == "update_available" and "1.10.0" in newer.reason
    same = check_update(plugins_dir / "clock", _entry(host, version="v1.0.0"),
                        api_url=host.api_url)
    assert same.status == "up_to_date"


def test_last_updated_decides_when_versions_cannot_be_read(host: RepoHost,
                                                           plugins_dir: Path) -> None:
    host.rate_limited = True
    changed = check_update(plugins_dir / "clock",
                           _entry(host, version="latest", last_updated="2026-02-02"),
                           api_url=host.api_url)
    assert changed.status == "update_available" and "2026-02-02" in changed.reason
    same = check_update(plugins_dir / "clock",
                        _entry(host, version="", last_updated="2026-01-01"),
                        api_url=host.api_url)
    assert same.status == "up_to_date"


def test_nothing_to_compare_is_an_error(host: RepoHost, plugins_dir: Path) -> None:
    host.rate_limited = True
    with pytest.raises(StoreError) as caught:
        check_update(plugins_dir / "clock", _entry(host, version="junk", last_updated=None),
                     api_url=host.api_url)
    assert caught.value.error_code == "DOWNLOAD_FAILED"


def test_registry_plugin_missing_from_every_registry_is_local_only(
        host: RepoHost, plugins_dir: Path) -> None:
    check = check_update(plugins_dir / "clock", None, api_url=host.api_url)
    assert (check.status, check.reason) == ("local_only", "in no registry")
    assert host.asked("/git/trees/") == 1  # no request for it


def test_hand_copied_and_development_plugins_are_local_only(
        host: RepoHost, tmp_path: Path, plugins_dir: Path) -> None:
    copied = tmp_path / "copied"
    copied.mkdir()
    for name, data in plugin_files("clock").items():
        (copied / name).write_bytes(data)
    assert check_update(copied, None, api_url=host.api_url).reason == \
        "not installed by the store and in no registry"
    (copied / "manifest.json").write_text('{"id": "clock", "version": "one"}')
    assert check_update(copied, _entry(host), api_url=host.api_url).reason == \
        "not installed by the store, and no version to compare with the registry's"
    (plugins_dir / "clock" / ".git").mkdir()
    assert check_update(plugins_dir / "clock", _entry(host),
                        api_url=host.api_url).status == "local_only"
    link = tmp_path / "plugins" / "clock"
    link.parent.mkdir()
    link.symlink_to(copied, target_is_directory=True)
    assert check_update(link, _entry(host), api_url=host.api_url).reason == \
        "a development link"


def test_repo_url_install_compares_with_its_repository(host: RepoHost,
                                                       tmp_path: Path) -> None:
    host.push(OWNER, "solo", plugin_files("solo"))
    install_plugin(InstallSource(repo=host.repo_url(OWNER, "solo"), kind="repo_url"),
                   tmp_path, api_url=host.api_url)
    assert check_update(tmp_path / "solo", None, api_url=host.api_url).status == "up_to_date"
    host.push(OWNER, "solo", {"extra.txt": "new"})
    assert check_update(tmp_path / "solo", None,
                        api_url=host.api_url).status == "update_available"


def test_absent_folder_is_not_installed(host: RepoHost, tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        check_update(tmp_path / "nothing", None, api_url=host.api_url)
    assert caught.value.error_code == "NOT_INSTALLED"


def test_repo_url_install_from_the_archive_updates_once_the_folder_id_is_known(
        host: RepoHost, tmp_path: Path) -> None:
    host.push(OWNER, "solo", plugin_files("solo"))
    source = InstallSource(repo=host.repo_url(OWNER, "solo"), kind="repo_url")
    host.rate_limited = True
    install_plugin(source, tmp_path, api_url=host.api_url)
    host.rate_limited = False
    check = check_update(tmp_path / "solo", None, api_url=host.api_url)
    assert (check.status, check.reason) == (
        "update_available", "installed from the archive; the folder id is now known")
    install_plugin(source, tmp_path, api_url=host.api_url)
    assert check_update(tmp_path / "solo", None, api_url=host.api_url).status == "up_to_date"


def test_one_listing_cache_lists_a_monorepo_once(host: RepoHost, plugins_dir: Path) -> None:
    for plugin_id in ("ticker", "weather"):
        push_mono(host, plugin_id)
        install_plugin(mono_source(host, plugin_id), plugins_dir, api_url=host.api_url)
    push_mono(host, "ticker", colour=(0, 255, 0))
    listed = host.asked("/git/trees/")
    cache: dict[Any, Any] = {}
    statuses = {plugin_id: check_update(
        plugins_dir / plugin_id,
        registry_entry(plugin_id, host.repo_url(OWNER, MONO), plugin_path=f"plugins/{plugin_id}"),
        api_url=host.api_url, listing_cache=cache).status
        for plugin_id in ("clock", "ticker", "weather")}
    assert statuses == {"clock": "up_to_date", "ticker": "update_available",
                        "weather": "up_to_date"}
    assert host.asked("/git/trees/") == listed + 1
    check_update(plugins_dir / "clock", _entry(host), api_url=host.api_url)
    assert host.asked("/git/trees/") == listed + 2, "without a cache every check lists"


def test_a_hand_copied_plugin_a_registry_lists_is_compared_by_version(
        host: RepoHost, tmp_path: Path) -> None:
    copied = tmp_path / "clock"
    copied.mkdir()
    for name, data in plugin_files("clock", version="1.0.0").items():
        (copied / name).write_bytes(data)
    asked = host.asked("/git/trees/")
    check = check_update(copied, _entry(host), api_url=host.api_url)
    assert (check.status, check.reason) == (
        "up_to_date", "copied in by hand; version 1.0.0 is the registry's latest")
    newer = {**_entry(host), "latest_version": "1.2.0"}
    check = check_update(copied, newer, api_url=host.api_url)
    assert (check.status, check.reason) == (
        "update_available", "copied in by hand; the registry has version 1.2.0 > 1.0.0")
    assert host.asked("/git/trees/") == asked  # no folder id to compare it with
