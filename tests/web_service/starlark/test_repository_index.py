"""The repository index kept on disk: used when fresh, and when the host is out of reach."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.display_service.helpers import wait_until
from tests.web_service.starlark.web_daemon import sample_files
from tests.web_service.store.repo_host import RepoHost
from web_service.starlark.repository_index import RepositoryIndex, Snapshot
from web_service.starlark.repository_source import RepositoryError, place_of

NAMES = ("amazing", "timer", "qlock")


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> RepoHost:
    with RepoHost() as running:
        for name in NAMES:
            running.push("tronbyt", "apps", sample_files(name), under=f"apps/{name}")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", running.api_url)
        yield running


def finished(index: RepositoryIndex, place: object) -> Snapshot:
    found: list[Snapshot] = []

    def done() -> bool:
        found[:] = [index.snapshot(place)]  # type: ignore[arg-type]
        return not found[0].progress.running

    wait_until(done, timeout=30)
    return found[0]


def test_a_kept_index_answers_while_the_host_is_down(host: RepoHost, tmp_path: Path) -> None:
    place = place_of({"starlark-apps": {"repository": host.repo_url("tronbyt", "apps")}}, {})
    first = finished(RepositoryIndex(tmp_path), place)
    assert [e["id"] for e in first.entries] == sorted(NAMES) and first.warning is None
    kept = tmp_path / "starlark-apps" / "repository" / "index.json"
    stored = json.loads(kept.read_text())
    stored["fetched_at"] = time.time() - 7200  # older than an hour: asked again
    kept.write_text(json.dumps(stored))
    host.api_status = 500
    asked = host.asked("manifest.yaml")
    later = finished(RepositoryIndex(tmp_path), place)  # a restarted web service
    assert [e["id"] for e in later.entries] == sorted(NAMES)
    assert later.warning is not None and "showing the index of" in later.warning
    assert "HTTP 500" in later.warning and later.fetched_at == stored["fetched_at"]
    assert host.asked("manifest.yaml") == asked  # the manifests came from the cache


def test_a_fresh_kept_index_is_used_without_asking_the_host(host: RepoHost,
                                                          tmp_path: Path) -> None:
    place = place_of({"starlark-apps": {"repository": host.repo_url("tronbyt", "apps")}}, {})
    finished(RepositoryIndex(tmp_path), place)
    trees = host.asked("/git/trees/")
    again = finished(RepositoryIndex(tmp_path), place)
    assert host.asked("/git/trees/") == trees and len(again.entries) == 3


def test_a_garbage_cache_is_read_again_from_the_host(host: RepoHost, tmp_path: Path) -> None:
    place = place_of({"starlark-apps": {"repository": host.repo_url("tronbyt", "apps")}}, {})
    finished(RepositoryIndex(tmp_path), place)
    folder = tmp_path / "starlark-apps" / "repository"
    (folder / "index.json").write_bytes(b"\x00not json")
    for manifest in (folder / "manifests").iterdir():
        manifest.write_bytes(b"name: Tampered\n")
    again = finished(RepositoryIndex(tmp_path), place)
    assert "Tampered" not in {e["name"] for e in again.entries}
    assert {e["id"] for e in again.entries} == set(NAMES)


def test_no_kept_index_and_no_host_is_an_error(host: RepoHost, tmp_path: Path) -> None:
    place = place_of({"starlark-apps": {"repository": host.repo_url("tronbyt", "apps")}}, {})
    host.api_status = 503
    with pytest.raises(RepositoryError) as refused:
        RepositoryIndex(tmp_path).snapshot(place)
    assert refused.value.error_code == "DOWNLOAD_FAILED" and refused.value.status == 502


def test_a_rate_limited_host_is_named_as_such(host: RepoHost, tmp_path: Path) -> None:
    place = place_of({"starlark-apps": {"repository": host.repo_url("tronbyt", "apps")}}, {})
    host.rate_limited = True
    with pytest.raises(RepositoryError) as refused:
        RepositoryIndex(tmp_path).snapshot(place)
    assert refused.value.error_code == "RATE_LIMITED" and refused.value.status == 502
    assert "token" in refused.value.message


def test_a_bad_repository_setting_is_named(tmp_path: Path) -> None:
    with pytest.raises(RepositoryError) as refused:
        place_of({"starlark-apps": {"repository": "ftp://example.com/x/y"}}, {})
    assert refused.value.error_code == "BAD_REPO_URL" and refused.value.status == 400
    assert "starlark-apps.repository" in refused.value.message
