"""Installing, replacing and uninstalling plugins: all or nothing, one at a time."""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.install_support import (
    MONO,
    OWNER,
    leftovers,
    mono_source,
    push_mono,
    tree_hash,
)
from tests.web_service.store.ops_daemons import serve_registry
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.errors import StoreError
from web_service.store.install import requirements, staging
from web_service.store.install.folders import (
    RECORD_FILE,
    InstallSource,
    install_plugin,
    recover,
    uninstall_plugin,
)
from web_service.store.work import install_work


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        push_mono(running, "clock")
        yield running


@pytest.fixture
def plugins_dir(tmp_path: Path) -> Path:
    return tmp_path / "plugin-repos"


def test_registry_install_writes_the_folder_and_its_record(host: RepoHost,
                                                           plugins_dir: Path) -> None:
    source = mono_source(host, "clock", latest_version="1.0.0", last_updated="2026-01-01")
    result = install_plugin(source, plugins_dir, api_url=host.api_url)
    folder = plugins_dir / "clock"
    for name, data in plugin_files("clock").items():
        assert (folder / name).read_bytes() == data
    record = json.loads((folder / RECORD_FILE).read_text())
    assert record == result.record
    assert (result.plugin_id, result.version, result.previous_version) == \
        ("clock", "1.0.0", None)
    assert record["tree_sha"] == host.tree_sha(OWNER, MONO, "plugins/clock")
    assert record["commit"] == host.head(OWNER, MONO)
    assert {k: record[k] for k in ("source", "repo", "branch", "plugin_path",
                                   "last_updated", "registry_url")} == {
        "source": "registry", "repo": host.repo_url(OWNER, MONO), "branch": "main",
        "plugin_path": "plugins/clock", "last_updated": "2026-01-01",
        "registry_url": f"{host.url}/plugins.json"}
    assert record["installed_at"]
    assert leftovers(plugins_dir) == []


def test_repo_url_install_of_a_whole_repository(host: RepoHost, plugins_dir: Path) -> None:
    host.push(OWNER, "weather-plugin", plugin_files("weather"))
    source = InstallSource(repo=host.repo_url(OWNER, "weather-plugin"), kind="repo_url")
    result = install_plugin(source, plugins_dir, api_url=host.api_url)
    assert result.plugin_id == "weather"
    assert result.record["tree_sha"] == host.tree_sha(OWNER, "weather-plugin")
    assert result.record["source"] == "repo_url" and result.record["plugin_path"] == ""
    assert (plugins_dir / "weather" / "manager.py").is_file()
    assert leftovers(plugins_dir) == []


def test_update_replaces_the_previous_version(host: RepoHost, plugins_dir: Path) -> None:
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    (plugins_dir / "clock" / "stale.txt").write_text("from 1.0.0")
    push_mono(host, "clock", version="2.0.0")
    result = install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert (result.version, result.previous_version) == ("2.0.0", "1.0.0")
    assert not (plugins_dir / "clock" / "stale.txt").exists()
    assert leftovers(plugins_dir) == []


def test_download_cut_mid_way_keeps_the_previous_install(host: RepoHost,
                                                         plugins_dir: Path) -> None:
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(plugins_dir)
    push_mono(host, "clock", version="2.0.0")
    host.cut["plugins/clock/manager.py"] = 30
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    assert "manager.py" in caught.value.message
    assert tree_hash(plugins_dir) == before
    assert leftovers(plugins_dir) == []


def test_plugin_without_its_class_is_refused(host: RepoHost, plugins_dir: Path) -> None:
    files = plugin_files("clock")
    files["manager.py"] = b"class Other:\n    pass\n"
    host.push(OWNER, MONO, files, under="plugins/clock", replace=True)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "BAD_PLUGIN"
    assert "SampleStorePlugin" in caught.value.message
    assert not (plugins_dir / "clock").exists() and leftovers(plugins_dir) == []


@pytest.mark.parametrize(("change", "code"), [
    ({"id": "other"}, "BAD_PLUGIN"),
    ({"class_name": None}, "BAD_PLUGIN"),
    ({"display_modes": []}, "BAD_PLUGIN"),
    ({"min_core_version": "99.0.0"}, "INCOMPATIBLE"),
    ({"compatible_versions": [">=1.0.0 <2.0.0"]}, "INCOMPATIBLE"),
    ({"max_core_version": "1.0.0"}, "INCOMPATIBLE"),
])
def test_unacceptable_manifest_is_refused(host: RepoHost, plugins_dir: Path,
                                          change: dict[str, object], code: str) -> None:
    files = plugin_files("clock", version="2.0.0")
    manifest = json.loads(files["manifest.json"])
    manifest.update(change)
    files["manifest.json"] = json.dumps({k: v for k, v in manifest.items()
                                         if v is not None}).encode()
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(plugins_dir)
    host.push(OWNER, MONO, files, under="plugins/clock", replace=True)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == code
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []


def test_manifest_without_version_is_accepted(host: RepoHost, plugins_dir: Path) -> None:
    files = plugin_files("clock")
    manifest = json.loads(files["manifest.json"])
    del manifest["version"], manifest["versions"]
    files["manifest.json"] = json.dumps(manifest).encode()
    host.push(OWNER, MONO, files, under="plugins/clock", replace=True)
    result = install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert result.version is None and (plugins_dir / "clock").is_dir()


def test_failing_requirements_roll_back_to_the_previous_version(
        host: RepoHost, plugins_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip finds nothing, offline
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(plugins_dir)
    push_mono(host, "clock", version="2.0.0", requirements="nonexistent-pkg-xyz\n")
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert "nonexistent-pkg-xyz" in caught.value.message, "pip's last lines are in the error"
    assert tree_hash(plugins_dir) == before, "the previous install is byte for byte intact"
    assert leftovers(plugins_dir) == []


def test_failing_requirements_of_a_new_plugin_leave_nothing(
        host: RepoHost, plugins_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    push_mono(host, "clock", requirements="nonexistent-pkg-xyz\n")
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert list(plugins_dir.iterdir()) == []


def test_satisfied_requirements_pass_offline(host: RepoHost, plugins_dir: Path) -> None:
    push_mono(host, "clock", requirements="requests>=2\n")
    result = install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                            python=sys.executable)
    assert result.plugin_id == "clock"
    assert (plugins_dir / "clock" / "requirements.txt").is_file()


def test_pip_that_hangs_is_stopped(host: RepoHost, plugins_dir: Path,
                                   tmp_path: Path) -> None:
    slow = tmp_path / "slow-python"
    slow.write_text("#!/bin/sh\nsleep 60 &\nsleep 60\n")
    slow.chmod(0o755)
    push_mono(host, "clock", requirements="anything\n")
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                       python=str(slow), pip_timeout=1)
    assert time.monotonic() - started < 20
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert "longer than 1 s" in caught.value.message
    assert list(plugins_dir.iterdir()) == []


def _held(lock: Path) -> bool:
    """Whether someone holds ``lock`` (an flock) now, read from /proc/locks: a probe that
    took the lock itself, even for an instant, could make the install it waits for busy."""
    try:
        info = lock.stat()
    except FileNotFoundError:
        return False
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    return any("FLOCK" in fields and where in fields
               for fields in map(str.split, Path("/proc/locks").read_text().splitlines()))


def test_second_install_of_one_plugin_is_busy(host: RepoHost, plugins_dir: Path) -> None:
    host.delay["/acme/ledpanel-plugins/raw/"] = 0.5
    outcome: list[object] = []
    first = threading.Thread(target=lambda: outcome.append(install_plugin(
        mono_source(host, "clock"), plugins_dir, api_url=host.api_url)))
    first.start()
    lock = plugins_dir / ".store-staging" / "clock.lock"
    deadline = time.monotonic() + 10
    # Wait until the first install holds the lock, not only until its file exists (it is
    # made a moment before it is locked).
    while not _held(lock) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _held(lock), "the first install never took its lock"
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "BUSY"
    with pytest.raises(StoreError) as during_uninstall:
        uninstall_plugin("clock", [plugins_dir])
    assert during_uninstall.value.error_code in ("BUSY", "NOT_INSTALLED")
    first.join(30)
    assert len(outcome) == 1 and (plugins_dir / "clock" / "manager.py").is_file()
    assert leftovers(plugins_dir) == []


def test_lock_held_by_another_process_is_busy(host: RepoHost, plugins_dir: Path) -> None:
    import subprocess

    (plugins_dir / ".store-staging").mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(plugins_dir / '.store-staging' / 'clock.lock')!r}, "
         "os.O_RDWR | os.O_CREAT)\nfcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\n"
         "sys.stdin.read()\n"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(StoreError) as caught:
            install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
        assert caught.value.error_code == "BUSY"
        assert host.asked("/raw/") == 0
    finally:
        holder.communicate(b"", timeout=10)


def test_uninstall_removes_the_folder(host: RepoHost, plugins_dir: Path,
                                      tmp_path: Path) -> None:
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    removed = uninstall_plugin("clock", [plugins_dir, tmp_path / "plugins"])
    assert removed == plugins_dir / "clock" and not removed.exists()
    assert leftovers(plugins_dir) == []
    with pytest.raises(StoreError) as caught:
        uninstall_plugin("clock", [plugins_dir, tmp_path / "plugins"])
    assert caught.value.error_code == "NOT_INSTALLED"


def test_uninstall_of_a_development_link_keeps_its_target(tmp_path: Path) -> None:
    checkout = tmp_path / "work" / "clock"
    checkout.mkdir(parents=True)
    (checkout / "manager.py").write_text("# my work\n")
    dev = tmp_path / "plugins"
    dev.mkdir()
    (dev / "clock").symlink_to(checkout, target_is_directory=True)
    before = tree_hash(tmp_path / "work")
    removed = uninstall_plugin("clock", [tmp_path / "plugin-repos", dev])
    assert removed == dev / "clock" and not os.path.lexists(removed)
    assert tree_hash(tmp_path / "work") == before


@pytest.mark.parametrize("bad", ["../clock", "", ".store-staging", "a/b", "..", "a\\b"])
def test_uninstall_refuses_a_bad_id(tmp_path: Path, bad: str) -> None:
    with pytest.raises(StoreError) as caught:
        uninstall_plugin(bad, [tmp_path])
    assert caught.value.error_code == "INVALID_PLUGIN_ID"


def test_recover_after_a_crash_between_the_renames(host: RepoHost, plugins_dir: Path) -> None:
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(plugins_dir / "clock")
    # a crash after the old folder went to the trash, before the new one moved in
    os.rename(plugins_dir / "clock", staging.trash_path(plugins_dir, "clock"))
    half = staging.new_work_dir(plugins_dir) / "plugin"
    half.mkdir()
    (half / "manifest.json").write_text("{")
    done = recover(plugins_dir)
    assert tree_hash(plugins_dir / "clock") == before
    assert leftovers(plugins_dir) == []
    assert any("restored" in line for line in done) and len(done) == 2
    assert recover(plugins_dir) == []


def test_install_over_a_development_link_is_refused(host: RepoHost, plugins_dir: Path,
                                                    tmp_path: Path) -> None:
    checkout = tmp_path / "work" / "clock"
    checkout.mkdir(parents=True)
    (checkout / "manager.py").write_text("# my work\n")
    plugins_dir.mkdir()
    (plugins_dir / "clock").symlink_to(checkout, target_is_directory=True)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert (caught.value.error_code, caught.value.status) == ("LOCAL_CHECKOUT", 409)
    assert caught.value.message == (f"clock is a development link ({checkout}); remove it "
                                    "to install from the store")
    assert os.readlink(plugins_dir / "clock") == str(checkout)
    assert (checkout / "manager.py").read_text() == "# my work\n"
    assert host.asked("/git/trees/") == 0 and leftovers(plugins_dir) == []


def test_repo_url_install_over_a_git_checkout_is_refused(host: RepoHost,
                                                         plugins_dir: Path) -> None:
    host.push(OWNER, "weather-plugin", plugin_files("weather"))
    (plugins_dir / "weather" / ".git").mkdir(parents=True)
    (plugins_dir / "weather" / "manager.py").write_text("# my work\n")
    before = tree_hash(plugins_dir)
    source = InstallSource(repo=host.repo_url(OWNER, "weather-plugin"), kind="repo_url")
    with pytest.raises(StoreError) as caught:
        install_plugin(source, plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "LOCAL_CHECKOUT"
    assert "weather is a development checkout" in caught.value.message
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []


@pytest.mark.parametrize(("requirement", "distribution"), [
    ("Flask<1", "flask"),  # a core dependency
    ("Werkzeug<1", "werkzeug"),  # what a core dependency needs
])
def test_requirements_cannot_change_what_the_core_runs_on(
        host: RepoHost, plugins_dir: Path, monkeypatch: pytest.MonkeyPatch,
        requirement: str, distribution: str) -> None:
    # pip's own switch, inherited by the pip the store starts: were the core not pinned,
    # pip would find nothing here rather than change the venv every test shares
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(plugins_dir)
    push_mono(host, "clock", version="2.0.0", requirements=f"{requirement}\n")
    version_before = importlib.metadata.version(distribution)
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                       python=sys.executable, pip_timeout=120)
    assert time.monotonic() - started < 60
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert "conflict" in caught.value.message.lower() or \
        "ResolutionImpossible" in caught.value.message
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []
    assert importlib.metadata.version(distribution) == version_before


def _checkout(folder: Path, plugin_id: str) -> Path:
    """A developer's git checkout of ``plugin_id`` at ``folder``."""
    for name, data in plugin_files(plugin_id).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return folder


def test_install_is_refused_by_a_checkout_of_that_id_under_another_name(
        host: RepoHost, plugins_dir: Path) -> None:
    checkout = _checkout(plugins_dir / "ledpanel-clock", "clock")
    before = tree_hash(plugins_dir)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    assert caught.value.error_code == "LOCAL_CHECKOUT"
    assert caught.value.message == (f"clock is a development checkout ({checkout} has .git); "
                                    "remove it to install from the store")
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []
    assert host.asked("/git/trees/") == 0


@pytest.mark.parametrize("name", ["clock", "my-clock"])
def test_install_is_refused_by_a_development_link_in_the_other_folder(
        host: RepoHost, plugins_dir: Path, tmp_path: Path, name: str) -> None:
    work = tmp_path / "work" / "clock"
    for file, data in plugin_files("clock").items():
        (work / file).parent.mkdir(parents=True, exist_ok=True)
        (work / file).write_bytes(data)
    dev = tmp_path / "plugins"
    dev.mkdir()
    (dev / name).symlink_to(work, target_is_directory=True)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                       also_dirs=[plugins_dir, dev])
    assert caught.value.error_code == "LOCAL_CHECKOUT"
    assert caught.value.message.startswith("clock is a development link (")
    assert str(work) in caught.value.message
    assert not os.path.lexists(plugins_dir / "clock")
    assert host.asked("/git/trees/") == 0


def test_a_checkout_made_while_pip_runs_still_stops_the_swap(host: RepoHost,
                                                             plugins_dir: Path,
                                                             tmp_path: Path) -> None:
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    push_mono(host, "clock", version="2.0.0", requirements="nothing-real\n")
    # "pip" here is a developer cloning the plugin next door while the install waits
    checkout = plugins_dir / "clock-dev"
    fake_pip = tmp_path / "fake-python"
    fake_pip.write_text(f"#!/bin/sh\nmkdir -p {checkout}/.git\n"
                        f"printf '%s' '{json.dumps({'id': 'clock', 'name': 'Clock'})}' "
                        f"> {checkout}/manifest.json\n")
    fake_pip.chmod(0o755)
    before = tree_hash(plugins_dir / "clock")
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                       python=str(fake_pip))
    assert caught.value.error_code == "LOCAL_CHECKOUT"
    assert f"({checkout} has .git)" in caught.value.message
    assert tree_hash(plugins_dir / "clock") == before
    assert leftovers(plugins_dir) == []


def test_uninstall_refuses_a_development_checkout(plugins_dir: Path) -> None:
    checkout = _checkout(plugins_dir / "clock", "clock")
    before = tree_hash(plugins_dir)
    with pytest.raises(StoreError) as caught:
        uninstall_plugin("clock", [plugins_dir])
    assert (caught.value.error_code, caught.value.status) == ("LOCAL_CHECKOUT", 409)
    assert caught.value.message == (f"clock is a development checkout ({checkout} has .git); "
                                    "remove it by hand")
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []


def test_a_store_install_looks_for_development_links_in_the_development_folder(
        registry_web: RegistryWeb, tmp_path: Path) -> None:
    host = registry_web.host
    push_mono(host, "radar")
    serve_registry(host, "radar")
    work = tmp_path / "work" / "radar"
    work.mkdir(parents=True)
    for name, data in plugin_files("radar").items():
        (work / name).write_bytes(data)
    dev = registry_web.paths.dev_plugins_dir
    dev.mkdir(parents=True, exist_ok=True)
    (dev / "my-radar").symlink_to(work, target_is_directory=True)
    with pytest.raises(StoreError) as caught:
        install_work(registry_web.app.extensions["ledpanel"], None, "radar")(lambda _: None)
    assert caught.value.error_code == "LOCAL_CHECKOUT"
    assert caught.value.message == (f"radar is a development link ({dev / 'my-radar'} -> "
                                    f"{work}); remove it to install from the store")
    assert not (registry_web.paths.plugins_dir() / "radar").exists()


@pytest.mark.parametrize("core", ["ledpanel", "not-installed-here"])
def test_constraints_pin_what_the_core_needs_through_its_dependencies(
        monkeypatch: pytest.MonkeyPatch, core: str) -> None:
    # a checkout run without installing the project walks from the listed dependencies
    monkeypatch.setattr(requirements, "CORE_DISTRIBUTION", core)
    pins = {pin.split("==")[0].lower(): pin.split("==")[1]
            for pin in requirements.core_constraints()}
    for name in ("flask", "werkzeug", "jinja2", "markupsafe", "requests", "urllib3",
                 "limits"):
        assert pins[name] == importlib.metadata.version(name), name
    assert "ledpanel" not in pins and "pytest" not in pins  # extras are not followed
