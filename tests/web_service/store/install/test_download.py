"""Downloading a plugin folder from the loopback repository host: API way and ZIP way."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_service.store.install_support import MONO, OWNER, push_mono
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.errors import StoreError
from web_service.store.install import download
from web_service.store.install.download import download_folder
from web_service.store.repo_url import parse_repo_url, raw_url, tree_url, zip_url


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        push_mono(running, "clock")
        push_mono(running, "ticker")
        yield running


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_monorepo_folder_comes_by_the_api_with_its_tree_id(host: RepoHost,
                                                          tmp_path: Path) -> None:
    steps: list[dict[str, Any]] = []
    info = download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                           tmp_path / "out", api_url=host.api_url, progress=steps.append)
    assert _files(tmp_path / "out") == plugin_files("clock")
    assert info.method == "api" and info.files == 3
    assert info.tree_sha == host.tree_sha(OWNER, MONO, "plugins/clock")
    assert info.commit == host.head(OWNER, MONO)
    assert host.asked("/raw/") == 3 and host.asked("/plugins/ticker/") == 0
    assert host.asked(".zip") == 0
    assert steps[0]["step"] == "listing"
    downloads = [s for s in steps if s["step"] == "downloading"]
    assert [s["files_done"] for s in downloads] == [1, 2, 3]
    assert downloads[-1]["bytes"] == info.bytes == sum(map(len, plugin_files("clock").values()))


def test_whole_repository_plugin_uses_the_root_tree(host: RepoHost, tmp_path: Path) -> None:
    host.push(OWNER, "solo", plugin_files("solo"))
    info = download_folder(host.repo_url(OWNER, "solo") + ".git", "main", "",
                           tmp_path / "out", api_url=host.api_url)
    assert _files(tmp_path / "out") == plugin_files("solo")
    assert info.tree_sha == host.tree_sha(OWNER, "solo")


@pytest.mark.parametrize("fault", ["rate_limited", "api_status", "truncated"])
def test_zip_fallback_when_the_api_cannot_serve(host: RepoHost, tmp_path: Path,
                                                fault: str) -> None:
    if fault == "api_status":
        host.api_status = 500
    else:
        setattr(host, fault, True)
    info = download_folder(host.repo_url(OWNER, MONO), "main", "plugins/ticker",
                           tmp_path / "out", api_url=host.api_url)
    assert _files(tmp_path / "out") == plugin_files("ticker")
    assert info.method == "zip" and info.commit is None and info.tree_sha is None
    assert host.asked("/git/trees/main") == 1
    assert host.asked("/archive/refs/heads/main.zip") == 1
    assert host.asked("/raw/") == 0
    assert not list(tmp_path.glob(".archive-*")), "the temp archive is removed"


def test_token_goes_to_the_api_only(host: RepoHost, tmp_path: Path) -> None:
    download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock", tmp_path / "a",
                    api_url=host.api_url, token="s3cret")
    assert host.auth == ["token s3cret"] * host.asked("/api/")
    assert host.asked("/raw/") == 3
    host.rate_limited = True
    before = len(host.auth)
    download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock", tmp_path / "b",
                    api_url=host.api_url, token="s3cret")
    assert len(host.auth) == before + 1, "only the listing (refused) carried the token"


@pytest.mark.parametrize(("fault", "named"), [
    ("cut raw file", "manager.py"),  # the line drops 20 bytes into the file
    ("cut archive", "main.zip"),  # the same with the API rate limited: the ZIP way
    ("missing raw file", "config_schema.json"),  # the host answers 404 for one file
])
def test_a_failed_download_names_the_file(host: RepoHost, tmp_path: Path, fault: str,
                                          named: str) -> None:
    if fault == "cut raw file":
        host.cut["plugins/clock/manager.py"] = 20
    elif fault == "cut archive":
        host.rate_limited = True
        host.cut["main.zip"] = 100
    else:
        host.status["plugins/clock/config_schema.json"] = 404
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    assert named in caught.value.message


def test_symlink_in_the_listing_is_refused(host: RepoHost, tmp_path: Path) -> None:
    host.link(OWNER, MONO, "plugins/clock/secrets", "/etc/passwd")
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert caught.value.error_code == "UNSAFE_ARCHIVE"
    assert host.asked("/raw/") == 0


def test_missing_folder_is_a_bad_plugin(host: RepoHost, tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/nothing",
                        tmp_path / "out", api_url=host.api_url)
    assert caught.value.error_code == "BAD_PLUGIN"


@pytest.mark.parametrize("url", [
    "ftp://host/a/b", "file:///etc/passwd", "https://host/a", "https://host/a/b/blob/x",
    "https://host/../b", "https://user:pw@host/a/b", "https://host/a/b?x=1", "", None,
    "https://host/a/b/tree/main/../../etc", "javascript:alert(1)",
])
def test_bad_repository_urls_are_refused(url: object) -> None:
    with pytest.raises(StoreError) as caught:
        parse_repo_url(url)
    assert caught.value.error_code == "BAD_REPO_URL"


def test_repository_url_forms() -> None:
    ref = parse_repo_url("https://github.com/owner/name.git")
    assert (ref.url, ref.branch, ref.plugin_path) == ("https://github.com/owner/name", None, "")
    ref = parse_repo_url("https://github.com/owner/mono/tree/dev/plugins/clock/")
    assert (ref.branch, ref.plugin_path) == ("dev", "plugins/clock")
    assert tree_url("https://api.github.com/", ref, "dev") == \
        "https://api.github.com/repos/owner/mono/git/trees/dev?recursive=1"
    assert raw_url(ref, "dev", "plugins/a b.py") == \
        "https://github.com/owner/mono/raw/dev/plugins/a%20b.py"
    assert zip_url(ref, "dev") == "https://github.com/owner/mono/archive/refs/heads/dev.zip"


def test_raw_file_that_drips_is_abandoned_at_its_deadline(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "RAW_DEADLINE", 1.0)
    host.drip["plugins/clock/manager.py"] = 0.2  # each read arrives well within 30 s
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert time.monotonic() - started < 5
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    assert caught.value.message == "manager.py: too slow (not complete within 1 s)"


@pytest.mark.parametrize(("piece_every", "rate_limited"), [(0.05, False), (0.05, True),
                                                           (5.0, False)],
                         ids=["raw-trickle", "archive-trickle", "raw-silence"])
def test_a_body_below_the_rate_floor_fails_early(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        piece_every: float, rate_limited: bool) -> None:
    """8 bytes every 50 ms (160 B/s) or one piece then silence: far below 1 KiB/s, so the
    download ends after one window, long before its deadlines."""
    monkeypatch.setattr(download, "RATE_WINDOW", 0.5)
    host.rate_limited = rate_limited
    host.drip["plugins/clock/manager.py"] = host.drip["main.zip"] = piece_every
    assert len(plugin_files("clock")["manager.py"]) > 8 * 20  # still dripping at 0.5 s
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert time.monotonic() - started < 3
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    what = "the archive main.zip" if rate_limited else "manager.py"
    assert caught.value.message == f"{what}: too slow (under 1 KiB/s for 0.5 s)"
    assert not (tmp_path / "out" / "manager.py").exists()


def test_a_body_above_the_rate_floor_is_not_cut(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "RATE_WINDOW", 0.2)
    monkeypatch.setattr(download, "MIN_RATE", 16)  # the drip below sends about 160 B/s
    host.drip["plugins/clock/manager.py"] = 0.05
    download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                    tmp_path / "out", api_url=host.api_url)
    assert (tmp_path / "out" / "manager.py").read_bytes() == \
        plugin_files("clock")["manager.py"]


def test_files_that_each_arrive_in_time_still_share_one_overall_deadline(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each file would arrive well within its own 3 s (the slowest takes ~1.3 s), but the
    # download as a whole has 0.8 s
    monkeypatch.setattr(download, "RAW_DEADLINE", 3.0)
    monkeypatch.setattr(download, "RAW_TOTAL_DEADLINE", 0.8)
    for name in plugin_files("clock"):
        host.drip[f"plugins/clock/{name}"] = 0.02
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert time.monotonic() - started < 2.0
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    file, words = caught.value.message.split(": ", 1)
    assert file in plugin_files("clock")
    assert words == "too slow (the files did not all arrive within 0.8 s)"


def test_archive_that_drips_is_abandoned_at_its_deadline(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "ARCHIVE_DEADLINE", 1.0)
    host.rate_limited = True
    host.drip["main.zip"] = 0.1
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert time.monotonic() - started < 5
    assert caught.value.error_code == "DOWNLOAD_FAILED"
    assert "main.zip: too slow" in caught.value.message


def test_listing_that_drips_falls_back_to_the_archive(
        host: RepoHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "LISTING_DEADLINE", 0.5)
    host.drip["/git/trees/main"] = 0.1
    info = download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                           tmp_path / "out", api_url=host.api_url)
    assert info.method == "zip" and _files(tmp_path / "out") == plugin_files("clock")


@pytest.mark.parametrize("rate_limited", [False, True], ids=["api", "zip"])
def test_a_file_that_is_also_a_folder_is_refused(host: RepoHost, tmp_path: Path,
                                                 rate_limited: bool) -> None:
    host.push(OWNER, MONO, {"data": "a file", "data/inner.txt": "below it"},
              under="plugins/clock")
    host.rate_limited = rate_limited
    with pytest.raises(StoreError) as caught:
        download_folder(host.repo_url(OWNER, MONO), "main", "plugins/clock",
                        tmp_path / "out", api_url=host.api_url)
    assert caught.value.error_code == "UNSAFE_ARCHIVE"
    assert caught.value.message == "'data' is both a file and a folder in the download"
    assert host.asked("/raw/") == 0
