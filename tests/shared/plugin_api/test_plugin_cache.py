"""The plugins' cache manager: freshness, persistence, clearing, strategies and metrics."""

from __future__ import annotations

import threading
from pathlib import Path

from shared.plugin_api.cache.manager import CacheManager


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_values_are_fresh_until_max_age(tmp_path: Path) -> None:
    clock = Clock()
    cache = CacheManager(tmp_path, clock=clock)
    cache.set("scores", {"home": 1})

    clock.now += 299
    assert cache.get("scores") == {"home": 1}
    clock.now += 2
    assert cache.get("scores") is None
    assert cache.get("scores", max_age=1000) == {"home": 1}
    assert cache.get("scores", max_age=None) == {"home": 1}
    assert cache.get("never-set") is None


def test_values_persist_as_json_files_for_a_new_instance(tmp_path: Path) -> None:
    clock = Clock()
    CacheManager(tmp_path, clock=clock).set("weather_oslo", [1, 2])

    assert (tmp_path / "plugins" / "weather_oslo.json").is_file()
    assert CacheManager(tmp_path, clock=clock).get("weather_oslo") == [1, 2]


def test_unsafe_keys_become_hashed_file_names(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    cache.set("../escape/key", "v")

    files = list((tmp_path / "plugins").iterdir())
    assert len(files) == 1 and files[0].name.startswith("key-")
    assert cache.get("../escape/key") == "v"


def test_clear_cache_removes_one_key_or_all(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    for key in ("a", "b", "c"):
        cache.set(key, key)

    cache.clear_cache("a")
    assert cache.get("a") is None and cache.get("b") == "b"
    cache.clear_cache()
    assert cache.get("b") is None and cache.get("c") is None
    assert list((tmp_path / "plugins").glob("*.json")) == []
    assert not hasattr(cache, "delete")


def test_a_file_removed_by_another_process_is_not_served_from_memory(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    cache.set("k", 1)
    (tmp_path / "plugins" / "k.json").unlink()

    assert cache.get("k") is None


def test_data_that_is_not_json_stays_in_memory(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    marker = object()
    cache.set("obj", marker)

    assert cache.get("obj") is marker
    assert not (tmp_path / "plugins" / "obj.json").exists()


def test_strategies_use_their_own_max_age(tmp_path: Path) -> None:
    clock = Clock()
    cache = CacheManager(tmp_path, clock=clock)
    cache.set("nfl_live", {"g": 1})
    cache.set("forecast", {"t": 5})
    clock.now += 60

    assert cache.get_cached_data_with_strategy("nfl_live", "live_scores") is None
    assert cache.get_cached_data_with_strategy("forecast", "weather") == {"t": 5}
    assert cache.get_background_cached_data("forecast") == {"t": 5}
    assert cache.get_background_cached_data("nfl_live", sport_key="nfl") is None


def test_metrics_report_the_hit_rate(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    assert cache.get_cache_metrics()["cache_hit_rate"] == 0.0
    cache.set("k", 1)
    cache.get("k")
    cache.get("k")
    cache.get("missing")

    metrics = cache.get_cache_metrics()
    assert (metrics["hits"], metrics["misses"]) == (2, 1)
    assert metrics["cache_hit_rate"] == 2 / 3
    assert cache.hit_counts() == (2, 1)  # what the display's metrics read


def test_concurrent_use_keeps_counts_consistent(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)

    def work(n: int) -> None:
        for i in range(50):
            cache.set(f"k{n}", i)
            cache.get(f"k{n}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    metrics = cache.get_cache_metrics()
    assert metrics["hits"] + metrics["misses"] == 200
    assert metrics["hits"] == 200
