"""The cache manager as community plugins use it: hostile keys stay inside the cache
folder, each plugin's disk use is bounded, and the calls they make all work."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from shared.plugin_api.boundary import plugin_call
from shared.plugin_api.cache.manager import CacheManager

HOSTILE_KEYS = [
    "../escape", "../../../../tmp/owned", "/etc/passwd", "a/b/../../c", "a\x00b", "\x00",
    "x" * 5000, "..", ".", "", " ", "key-" + "0" * 32, "nul\x00/../x", "C:\\win\\path",
    "тест/ключ", "a\nb", "~", "$(touch pwned)",
]


def everything_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def test_hostile_keys_round_trip_and_write_only_inside_the_cache_folder(
    tmp_path: Path,
) -> None:
    # Nested three deep, so a key escaping by up to three "../" would land in tmp_path.
    cache_dir = tmp_path / "a" / "b" / "cache"
    cache = CacheManager(cache_dir)
    for n, key in enumerate(HOSTILE_KEYS):
        cache.set(key, {"n": n})

    folder = cache_dir / "plugins"
    names = [p.name for p in folder.iterdir()]
    assert len(names) == len(HOSTILE_KEYS)  # one file each: no two keys share a file
    for name in names:
        assert (folder / name).is_file() and not (folder / name).is_symlink()
        assert "/" not in name and "\x00" not in name and len(name) <= 110
        assert name.endswith(".json") and not name.startswith(".")
    assert everything_under(tmp_path) == {"a", "a/b", "a/b/cache", "a/b/cache/plugins"} | {
        f"a/b/cache/plugins/{name}" for name in names}
    assert not Path("/tmp/owned").exists() and not Path("/etc/passwd.json").exists()

    fresh = CacheManager(cache_dir)  # read back from the files
    for n, key in enumerate(HOSTILE_KEYS):
        assert fresh.get(key) == {"n": n}, repr(key)
    for key in HOSTILE_KEYS:
        fresh.clear_cache(key)
    assert list(folder.iterdir()) == []


def test_a_plain_key_cannot_collide_with_a_hashed_name(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    cache.set("../x", "hashed")
    hashed = next((tmp_path / "plugins").iterdir()).name.removesuffix(".json")
    cache.set(hashed, "plain")
    assert cache.get("../x") == "hashed" and cache.get(hashed) == "plain"


def payload(size: int) -> str:
    return "p" * size


def test_each_plugin_is_bounded_and_evicts_its_own_oldest_entries(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path, owner_limit_bytes=4000)
    with plugin_call("other", "update"):
        cache.set("other-1", payload(1500))
    for n in range(6):
        with plugin_call("hungry", "update"):
            cache.set(f"hungry-{n}", payload(900))

    with plugin_call("hungry", "update"):
        metrics = cache.get_cache_metrics()
        assert metrics["owner"] == "hungry"
        assert 0 < metrics["owner_bytes"] <= 4000
    files = {p.name: p.stat().st_size for p in (tmp_path / "plugins").iterdir()}
    hungry = sorted(name for name in files if name.startswith("hungry-"))
    assert sum(files[name] for name in hungry) <= 4000
    assert hungry == ["hungry-2.json", "hungry-3.json", "hungry-4.json", "hungry-5.json"]
    assert cache.get("hungry-0") is None and cache.get("hungry-5") == payload(900)
    assert cache.get("other-1") == payload(1500)  # another plugin's entry is untouched
    stored = json.loads((tmp_path / "plugins" / "other-1.json").read_text())
    assert stored["owner"] == "other"


def test_an_entry_larger_than_the_allowance_is_refused_and_the_old_value_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    cache = CacheManager(tmp_path, owner_limit_bytes=2000)
    with plugin_call("big", "update"):
        cache.set("k", "small")
        with caplog.at_level(logging.WARNING, logger="shared.plugin_api.cache.manager"):
            cache.set("k", payload(5000))
    assert cache.get("k") == "small"
    assert CacheManager(tmp_path).get("k") == "small"
    assert any(r.message.startswith("big: cache key 'k' not stored") for r in caplog.records)


def test_the_allowance_counts_entries_left_by_an_earlier_run(tmp_path: Path) -> None:
    with plugin_call("p", "update"):
        first = CacheManager(tmp_path, owner_limit_bytes=3000)
        for n in range(3):
            first.set(f"old-{n}", payload(800))
            os.utime(tmp_path / "plugins" / f"old-{n}.json", ns=(n * 10**9, n * 10**9))
        second = CacheManager(tmp_path, owner_limit_bytes=3000)
        second.set("new", payload(800))
        used = second.get_cache_metrics()["owner_bytes"]
    names = sorted(p.name for p in (tmp_path / "plugins").iterdir())
    assert names == ["new.json", "old-1.json", "old-2.json"]
    assert used == sum(p.stat().st_size for p in (tmp_path / "plugins").iterdir())


def test_the_calls_plugins_make(tmp_path: Path) -> None:
    now = [1000.0]
    cache = CacheManager(tmp_path, clock=lambda: now[0])
    cache.set("nfl_live_scores", {"g": 1})
    cache.set("weather_today", {"t": 3})
    now[0] += 45
    assert cache.get("weather_today", max_age=60) == {"t": 3}
    assert cache.get("weather_today", max_age=30) is None
    assert cache.get_cached_data_with_strategy("nfl_live_scores", "live_scores") is None
    assert cache.get_cached_data_with_strategy("weather_today", "weather") == {"t": 3}
    assert cache.get_background_cached_data("weather_today") == {"t": 3}
    assert cache.get_background_cached_data("scores", sport_key="nfl_live") is None
    metrics = cache.get_cache_metrics()
    assert 0.0 < metrics["cache_hit_rate"] < 1.0
    cache.clear_cache("weather_today")
    assert cache.get("weather_today", max_age=None) is None
    assert cache.get("nfl_live_scores", max_age=None) == {"g": 1}
    cache.clear_cache()
    assert cache.get("nfl_live_scores", max_age=None) is None
    assert list((tmp_path / "plugins").iterdir()) == []
    assert cache.config_manager is None  # set by the plugin manager that hands it out


def test_evicted_entries_leave_memory_too(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path, owner_limit_bytes=1_000_000)
    for index in range(200):
        cache.set(f"k{index}", "x" * 100_000)
    on_disk = list((tmp_path / "plugins").glob("*.json"))
    assert 0 < len(on_disk) <= 10
    assert cache.get_cache_metrics()["memory_entries"] <= len(on_disk) + 1
    assert cache.get("k0") is None and cache.get("k199") == "x" * 100_000
