"""The plugins' cache over the API: list entries, clear one or all, never the bus files."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from shared.bus import core as keys
from shared.plugin_api.boundary import plugin_call
from shared.plugin_api.cache.manager import CacheManager

URL_KEY = "https://api.example.com/scores?league=nfl&week=3"  # no plain name: hashed


def bus_files(web) -> dict[str, bytes]:
    """Every file directly in the cache dir (the bus, the locks), with its bytes."""
    return {p.name: p.read_bytes() for p in web.paths.cache_dir.iterdir() if p.is_file()}


@pytest.fixture
def cache(web) -> CacheManager:
    """A cache manager as the display gives plugins, over the web's cache dir, with a
    running display's bus files beside it."""
    web.start_display(plugin_id="clock", mode="clock")
    web.bus.publish(keys.CONFIG_CHANGED, {"seq": 1, "sections": ["clock"]})
    return CacheManager(web.paths.cache_dir)


def listed(web) -> dict[str, dict]:
    answer = web.client.get("/api/v3/cache/list")
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert data["count"] == len(data["entries"]) and data["truncated"] is False
    assert data["total_bytes"] == sum(e["size"] for e in data["entries"])
    return {e["file"]: e for e in data["entries"]}


def clear(web, body=None, **kwargs):
    return web.client.post("/api/v3/cache/clear", json=body, **kwargs)


def refused(answer, status, code):
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    assert answer.get_json()["error_code"] == code, answer.get_json()
    return answer.get_json()


def test_list_shows_each_entry_with_key_size_age_and_owner(web, cache):
    cache.set("weather_today", {"temp": 21})
    cache.set(URL_KEY, [1, 2, 3])
    with plugin_call("clock", "update"):
        cache.set("clock_tz", "Europe/Paris")
    folder = web.paths.cache_dir / "plugins"
    an_hour_ago = time.time() - 3600
    os.utime(folder / "weather_today.json", (an_hour_ago, an_hour_ago))
    entries = listed(web)
    assert set(entries) == {"weather_today.json", "clock_tz.json", *(
        f for f in os.listdir(folder) if f.startswith("key-"))}
    weather = entries["weather_today.json"]
    assert weather["key"] == "weather_today" and weather["owner"] == "core"
    assert weather["size"] == (folder / "weather_today.json").stat().st_size
    assert 3590 < weather["age_seconds"] < 3700 and weather["hashed"] is False
    hashed = next(e for e in entries.values() if e["hashed"])
    assert hashed["key"] == URL_KEY and hashed["file"].startswith("key-")
    assert entries["clock_tz.json"]["owner"] == "clock"
    assert entries["clock_tz.json"]["age_seconds"] < 60


def test_list_never_shows_bus_files_temp_files_symlinks_or_folders(web, cache):
    cache.set("one", 1)
    folder = web.paths.cache_dir / "plugins"
    (folder / ".one.json.x1y2.tmp").write_bytes(b'{"owner":"core"')
    (folder / "sub.json").mkdir()
    (folder / "bus.json").symlink_to(web.paths.cache_dir / "display_state.json")
    assert set(listed(web)) == {"one.json"}
    assert "display_state.json" in bus_files(web)


def test_an_empty_or_missing_cache_lists_nothing(web):
    assert listed(web) == {}


def test_clear_one_key_removes_only_its_file_and_the_plugin_no_longer_gets_it(web, cache):
    cache.set("weather_today", {"temp": 21})
    cache.set(URL_KEY, [1, 2, 3])
    assert cache.get(URL_KEY) == [1, 2, 3]  # now in the manager's memory too
    before = bus_files(web)
    answer = clear(web, {"key": URL_KEY})
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert data["count"] == 1 and data["cleared"][0]["key"] == URL_KEY
    assert cache.get(URL_KEY) is None and cache.get("weather_today") == {"temp": 21}
    assert set(listed(web)) == {"weather_today.json"}
    assert bus_files(web) == before


def test_clear_by_listed_file_name(web, cache):
    cache.set(URL_KEY, "x")
    (name,) = listed(web)
    assert clear(web, {"file": name}).status_code == 200
    assert listed(web) == {}


def test_clear_all_removes_every_entry_and_no_bus_file(web, cache):
    for index in range(5):
        cache.set(f"key_{index}", "x" * index)
    cache.set(URL_KEY, "y")
    folder = web.paths.cache_dir / "plugins"
    temp = folder / ".key_1.json.abcd.tmp"  # a writer's temp file: not ours to remove
    temp.write_bytes(b"{")
    before = bus_files(web)
    answer = web.client.post("/api/v3/cache/clear")
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert data["count"] == 6 and data["bytes"] == sum(e["size"] for e in data["cleared"])
    assert listed(web) == {} and cache.get("key_3") is None
    assert bus_files(web) == before and temp.exists()


def test_clear_all_through_a_symlinked_plugins_folder_removes_nothing(web, cache):
    """A ``plugins`` link into the bus folder must not make the bus files cache entries."""
    (web.paths.cache_dir / "plugins").symlink_to(web.paths.cache_dir)
    before = bus_files(web)
    assert listed(web) == {}
    assert web.client.post("/api/v3/cache/clear").get_json()["data"]["count"] == 0
    refused(clear(web, {"file": "display_state.json"}), 404, "CACHE_KEY_NOT_FOUND")
    assert bus_files(web) == before


@pytest.mark.parametrize("body", [{"key": "display_state"}, {"key": "nothing"},
                                  {"file": "display_state.json"}, {"file": "missing.json"}])
def test_clearing_what_is_not_a_cache_entry_is_404_and_touches_nothing(web, cache, body):
    cache.set("kept", 1)
    before = bus_files(web)
    refused(clear(web, body), 404, "CACHE_KEY_NOT_FOUND")
    assert bus_files(web) == before and set(listed(web)) == {"kept.json"}


@pytest.mark.parametrize(("body", "code"), [
    ({"key": ""}, "INVALID_FIELD"),
    ({"key": 5}, "INVALID_FIELD"),
    ({"key": ["a"]}, "INVALID_FIELD"),
    ({"key": "k" * 5000}, "INVALID_FIELD"),
    ({"key": "a", "file": "a.json"}, "INVALID_FIELD"),
    ({"file": "../display_state.json"}, "INVALID_PATH"),
    ({"file": ".."}, "INVALID_PATH"),
    ({"file": "/etc/passwd"}, "INVALID_PATH"),
    ({"file": "a/b.json"}, "INVALID_PATH"),
    ({"file": ".hidden.json"}, "INVALID_PATH"),
    ({"file": "x\x00.json"}, "INVALID_PATH"),
    ({"file": "kept"}, "INVALID_PATH"),
])
def test_bad_clear_requests_are_one_400(web, cache, body, code):
    cache.set("kept", 1)
    before = bus_files(web)
    refused(clear(web, body), 400, code)
    assert bus_files(web) == before and set(listed(web)) == {"kept.json"}


def test_a_key_that_looks_like_a_path_is_cleared_inside_the_folder_only(web, cache):
    cache.set("../display_state", {"sneaky": True})  # stored under a hash of itself
    before = bus_files(web)
    assert clear(web, {"key": "../display_state"}).status_code == 200
    assert listed(web) == {} and bus_files(web) == before


def test_room_freed_by_a_web_clear_counts_for_the_display_s_quota(web):
    cache = CacheManager(web.paths.cache_dir, owner_limit_bytes=1000)
    payload = "x" * 250  # about 300 bytes on disk each
    for key in ("a", "b", "c"):
        cache.set(key, payload)
        time.sleep(0.01)  # distinct mtimes: eviction goes oldest first
    assert clear(web, {"key": "c"}).status_code == 200
    cache.set("d", payload)  # fits in the room c left: nothing else must go
    assert set(listed(web)) == {"a.json", "b.json", "d.json"}
    assert cache.get("a") == payload


def test_a_form_post_clears_too(web, cache):
    cache.set("one", 1)
    cache.set("two", 2)
    answer = web.client.post("/api/v3/cache/clear", data={"key": "one"},
                             content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200, answer.get_json()
    assert set(listed(web)) == {"two.json"}


def test_cache_dir_files_stay_byte_identical_across_list_and_clears(web, cache):
    cache.set("a", 1)
    before = bus_files(web)
    listed(web)
    clear(web, {"key": "a"})
    web.client.post("/api/v3/cache/clear")
    assert bus_files(web) == before
    assert Path(web.paths.cache_dir / "display_state.json").exists()
