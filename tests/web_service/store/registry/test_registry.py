"""The registry library against a loopback host: tolerant parse, merge, cache, stale."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest

from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry
from web_service.store.registry import catalog as registry_module
from web_service.store.registry.cache import cache_file
from web_service.store.registry.catalog import Registry, RegistryUnavailable
from web_service.store.registry.sources import Source


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/plugins.json"


def make(cache: Path, *urls: str, kind: str = "registry") -> Registry:
    return Registry(cache, [Source(kind if i else "registry", u, "settings" if i == 0 else
                                   "user") for i, u in enumerate(urls)])


@pytest.fixture(autouse=True)
def _no_retry_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "RETRY_AFTER", 0.0)


def test_broken_entries_are_skipped_with_a_warning_naming_them(
        tmp_path: Path, registry_host: RepoHost) -> None:
    repo = registry_host.repo_url("community", "plugins")
    good = registry_entry("weather", repo, plugin_path="plugins/weather",
                          screenshot_url="x.png", rating={"stars": 4})
    index = registry(
        good, "not an object", {"name": "no id", "repo": repo},
        registry_entry("../escape", repo), registry_entry("named", repo, name=42),
        registry_entry("badpath", repo, plugin_path="../../etc"),
        registry_entry("norepo", "file:///etc/passwd"),
        registry_entry("types", repo, tags="sports", verified="yes", stars=-3,
                       downloads=True, description=7, author="a" * 5000),
        registry_entry("weather", repo, name="Second weather"))
    url = registry_host.serve("plugins.json", index)
    view = make(tmp_path, url).entries()
    ids = [entry["id"] for entry in view.plugins]
    assert ids == ["weather", "types"]
    weather = view.by_id["weather"]
    assert weather["screenshot_url"] == "x.png" and weather["rating"] == {"stars": 4}
    assert weather["source"] == url and weather["plugin_path"] == "plugins/weather"
    types = view.by_id["types"]
    assert types["tags"] == [] and types["verified"] is False
    assert types["stars"] == 0 and types["downloads"] == 0
    assert types["description"] == "" and len(types["author"]) == 200
    text = "\n".join(view.warnings)
    for label in ("entry 1 (no id)", "entry 2 (no id)", "'../escape'", "'named'",
                  "'badpath'", "'norepo'", "entry 8 ('weather')"):
        assert label in text, (label, text)
    assert not view.stale


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"plugins": {}}',
                                  b"\xff\xfe", b"[" * 100 + b"]" * 100])
def test_a_body_that_is_no_registry_is_refused_whole(
        tmp_path: Path, registry_host: RepoHost, body: bytes) -> None:
    url = registry_host.serve("plugins.json", body)
    with pytest.raises(RegistryUnavailable) as caught:
        make(tmp_path, url).entries()
    assert url in caught.value.message
    assert not cache_file(tmp_path).exists()


def test_sources_merge_first_wins_and_a_repository_becomes_an_entry(
        tmp_path: Path, registry_host: RepoHost) -> None:
    repo = registry_host.repo_url("community", "plugins")
    first = registry_host.serve("one.json", registry(registry_entry("clock", repo),
                                                     registry_entry("news", repo)))
    second = registry_host.serve("two.json", registry(registry_entry("clock", repo,
                                                                     name="Other clock")))
    registry_host.push("someone", "lava-lamp", plugin_files("lava-lamp", version="2.1.0"),
                       branch="dev")
    lone = registry_host.repo_url("someone", "lava-lamp") + "/tree/dev"
    reg = Registry(tmp_path, [Source("registry", first, "settings"),
                              Source("registry", second, "user"),
                              Source("repository", lone, "user")])
    view = reg.entries()
    assert [e["id"] for e in view.plugins] == ["clock", "news", "lava-lamp"]
    assert view.by_id["clock"]["name"] == "Clock" and view.by_id["clock"]["source"] == first
    lava = view.by_id["lava-lamp"]
    assert lava["repo"] == registry_host.repo_url("someone", "lava-lamp")
    assert lava["branch"] == "dev" and lava["plugin_path"] == ""
    assert lava["latest_version"] == "2.1.0" and lava["source"] == lone
    assert lava["class_name"] == "SampleStorePlugin"
    assert registry_host.asked("/someone/lava-lamp/raw/dev/manifest.json") == 1
    assert any("'clock' is skipped" in w and first in w for w in view.warnings)
    assert reg.find("lava-lamp") == lava and reg.find("missing") is None


def test_a_repository_whose_manifest_lacks_what_the_store_needs_is_a_warning(
        tmp_path: Path, registry_host: RepoHost) -> None:
    files = plugin_files("half")
    manifest = json.loads(files["manifest.json"])
    del manifest["class_name"]
    files["manifest.json"] = json.dumps(manifest).encode()
    registry_host.push("someone", "half", files)
    main = registry_host.serve("plugins.json", registry())
    reg = Registry(tmp_path, [Source("registry", main, "settings"),
                              Source("repository", registry_host.repo_url("someone", "half"),
                                     "user")])
    view = reg.entries()
    assert view.plugins == [] and view.stale
    assert any("lacks class_name" in w for w in view.warnings)


def test_the_cache_answers_within_the_ttl_and_refreshes_after_it(
        tmp_path: Path, registry_host: RepoHost) -> None:
    repo = registry_host.repo_url("community", "plugins")
    url = registry_host.serve("plugins.json", registry(registry_entry("clock", repo)))
    reg = make(tmp_path, url)
    first = reg.entries()
    assert registry_host.asked("/plugins.json") == 1
    assert json.loads(cache_file(tmp_path).read_text())["plugins"][0]["id"] == "clock"
    registry_host.serve("plugins.json", registry(registry_entry("clock", repo),
                                                 registry_entry("news", repo)))
    assert reg.entries().plugins == first.plugins
    assert registry_host.asked("/plugins.json") == 1
    assert [e["id"] for e in reg.entries(refresh=True).plugins] == ["clock", "news"]
    assert registry_host.asked("/plugins.json") == 2
    old = time.time() - 7200
    data = json.loads(cache_file(tmp_path).read_text())
    data["fetched_ts"] = old
    cache_file(tmp_path).write_text(json.dumps(data))
    os.utime(cache_file(tmp_path), (old, old))
    assert len(reg.entries().plugins) == 2
    assert registry_host.asked("/plugins.json") == 3


def test_an_unreachable_host_serves_the_cache_stale_with_a_warning(
        tmp_path: Path) -> None:
    with RepoHost() as host:
        repo = host.repo_url("community", "plugins")
        url = host.serve("plugins.json", registry(registry_entry("clock", repo)))
        reg = Registry(tmp_path, [Source("registry", url, "settings")], ttl=0)
        fresh = reg.entries()
        assert not fresh.stale and fresh.fetched_at
    started = time.monotonic()
    view = reg.entries()  # the host is gone
    assert time.monotonic() - started < 5
    assert view.stale and [e["id"] for e in view.plugins] == ["clock"]
    assert view.fetched_at == fresh.fetched_at
    assert any(url in w and "could not be fetched" in w for w in view.warnings)
    assert reg.entries(refresh=True).stale


def test_no_cache_and_no_host_is_registry_unavailable(tmp_path: Path) -> None:
    url = closed_port_url()
    with pytest.raises(RegistryUnavailable) as caught:
        make(tmp_path, url).entries()
    assert caught.value.status == 503 and caught.value.error_code == "REGISTRY_UNAVAILABLE"
    assert url in caught.value.message


def test_one_failing_source_keeps_its_entries_from_the_last_fetch(
        tmp_path: Path, registry_host: RepoHost) -> None:
    repo = registry_host.repo_url("community", "plugins")
    main = registry_host.serve("plugins.json", registry(registry_entry("clock", repo)))
    extra = registry_host.serve("extra.json", registry(registry_entry("news", repo)))
    reg = make(tmp_path, main, extra)
    assert [e["id"] for e in reg.entries().plugins] == ["clock", "news"]
    registry_host.status["/extra.json"] = 500
    view = reg.entries(refresh=True)
    assert [e["id"] for e in view.plugins] == ["clock", "news"]
    assert view.stale and any(extra in w and "HTTP 500" in w for w in view.warnings)


def test_changed_sources_are_fetched_again_and_a_slow_host_is_abandoned(
        tmp_path: Path, registry_host: RepoHost, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = registry_host.repo_url("community", "plugins")
    main = registry_host.serve("plugins.json", registry(registry_entry("clock", repo)))
    make(tmp_path, main).entries()
    extra = registry_host.serve("extra.json", registry(registry_entry("news", repo)))
    assert [e["id"] for e in make(tmp_path, main, extra).entries().plugins] == \
        ["clock", "news"]
    monkeypatch.setattr("web_service.store.registry.fetch.TIMEOUT", (1.0, 0.5))
    registry_host.delay["/extra.json"] = 3
    started = time.monotonic()
    view = make(tmp_path, main, extra).entries(refresh=True)
    assert time.monotonic() - started < 2.5
    assert view.stale and [e["id"] for e in view.plugins] == ["clock", "news"]


def test_a_registry_larger_than_the_cap_is_refused(
        tmp_path: Path, registry_host: RepoHost, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web_service.store.registry.fetch.MAX_BYTES", 1000)
    repo = registry_host.repo_url("community", "plugins")
    url = registry_host.serve("plugins.json", registry(
        *[registry_entry(f"p{i}", repo) for i in range(20)]))
    with pytest.raises(RegistryUnavailable) as caught:
        make(tmp_path, url).entries()
    assert "more than the 1000 allowed" in caught.value.message
