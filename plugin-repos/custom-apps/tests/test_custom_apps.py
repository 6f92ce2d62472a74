"""Custom Apps plugin: requests from the bus become modes, the apps survive a reload from
their file, garbage in the file reads as none, lifetimes end, and text and pixel frames
are drawn at several panel sizes."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.bus.core import CUSTOM_APP_REQUEST, CUSTOM_APPS, Bus
from shared.config.prepare import schema_problem
from shared.notify.custom_fields import parse_custom_app
from shared.notify.custom_requests import remove_custom_app, set_custom_app
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from shared.plugin_system.manifest import manifest_errors, store_errors

PLUGIN_DIR = Path(__file__).resolve().parent.parent
BLACK, RED, GREEN, BLUE = (0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)
SIZES = [(32, 16), (64, 32), (128, 32), (128, 64)]


def paths_for(base: Path) -> Paths:
    return Paths(root=base, config_dir=base / "config", cache_dir=base / "cache",
                 plugins_dir_override=PLUGIN_DIR.parent, assets_dir_override=base / "assets")


@pytest.fixture
def loaded(tmp_path: Path) -> Iterator[Any]:
    """Load the plugin as the display does (real display manager, headless panel)."""
    made: list[PluginManager] = []

    def load(size: tuple[int, int] = (64, 32)) -> Any:
        display = DisplayManager(HeadlessMatrix(*size))
        display.bind_render_thread()
        manager = PluginManager(paths_for(tmp_path), {"web-ui-info": {"enabled": False},
                                                      "starlark-apps": {"enabled": False}},
                                display_manager=display)
        manager.load_enabled()
        assert "custom-apps" not in manager.load_errors, manager.load_errors
        made.append(manager)
        return manager.instances["custom-apps"]

    yield load
    for manager in made:
        manager.unload_all()


def push(base: Path, name: str, body: dict[str, Any], **request: Any) -> str:
    app, problem = parse_custom_app(name, body)
    assert app is not None, problem
    bus = Bus(base / "cache")
    if request:  # a request with its own fields (the bus would stamp requested_at now)
        request_id = f"r{time.time_ns()}"
        path = base / "cache" / f"{CUSTOM_APP_REQUEST}@{time.time_ns():020d}-{request_id}.json"
        path.write_text(json.dumps({"action": "set", "name": name, "app": app,
                                    "source": "http", "request_id": request_id, **request}))
        return request_id
    return set_custom_app(bus, name, app, "http")


def record(base: Path) -> dict[str, Any]:
    return Bus(base / "cache").read(CUSTOM_APPS) or {}


def test_manifest_and_schema_are_valid() -> None:
    manifest = json.loads((PLUGIN_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert manifest_errors(manifest) == [] and store_errors(manifest) == []
    assert manifest["display_modes"] == ["custom-apps"] and manifest["enabled_by_default"]
    schema = json.loads((PLUGIN_DIR / "config_schema.json").read_text(encoding="utf-8"))
    assert schema_problem(schema) is None


def test_no_apps_means_no_modes_and_nothing_to_show(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded()
    assert plugin.modes == []
    assert plugin.display(force_clear=True, display_mode="custom-apps") is False
    assert record(tmp_path)["apps"] == []


def test_set_and_remove_requests_change_the_modes_and_the_record(
        loaded: Any, tmp_path: Path) -> None:
    plugin = loaded()
    first = push(tmp_path, "door", {"text": "Open", "color": "#ff0000"})
    second = push(tmp_path, "anim", {"frames": [[[0, 0, 0, 255, 0]]]})
    plugin.update()
    assert plugin.modes == ["custom-anim", "custom-door"]
    published = record(tmp_path)
    assert [a["name"] for a in published["apps"]] == ["anim", "door"]
    assert published["apps"][1]["mode"] == "custom-door"
    assert published["apps"][0]["frames"] == 1 and "pixels" not in json.dumps(published)
    assert published["requests"][first] == {"name": "door", "outcome": "set", "problem": None}
    assert published["requests"][second]["outcome"] == "set"
    gone = remove_custom_app(Bus(tmp_path / "cache"), "door", "mqtt")
    absent = remove_custom_app(Bus(tmp_path / "cache"), "nothing", "http")
    plugin.update()
    assert plugin.modes == ["custom-anim"]
    assert plugin.display(force_clear=True, display_mode="custom-door") is False
    requests = record(tmp_path)["requests"]
    assert requests[gone]["outcome"] == "removed" and requests[absent]["outcome"] == "not_found"


def test_a_hostile_request_is_refused_with_its_reason(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded()
    bus = Bus(tmp_path / "cache")
    bad_app = bus.request(CUSTOM_APP_REQUEST, {"action": "set", "name": "x",
                                               "app": {"text": 5}})
    bad_name = bus.request(CUSTOM_APP_REQUEST, {"action": "set", "name": "../x", "app": {}})
    bad_action = bus.request(CUSTOM_APP_REQUEST, {"action": "explode", "name": "x"})
    plugin.update()
    requests = record(tmp_path)["requests"]
    assert requests[bad_app] == {"name": "x", "outcome": "refused",
                                 "problem": "'text' must be a string"}
    assert requests[bad_name]["outcome"] == "refused"
    assert requests[bad_action]["outcome"] == "refused"
    assert plugin.modes == []


def test_apps_survive_a_reload_and_garbage_in_their_file_reads_as_none(
        loaded: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    plugin = loaded()
    push(tmp_path, "kept", {"text": "Still here"})
    plugin.update()
    assert loaded().modes == ["custom-kept"]  # a new instance, as after a restart
    store = tmp_path / "assets" / "plugins" / "custom-apps" / "apps.json"
    stored = json.loads(store.read_text())
    stored["apps"]["evil"] = {"app": {"text": 5}, "set_at": 1, "expires_at": None}
    store.write_text(json.dumps(stored))
    with caplog.at_level(logging.WARNING):
        assert loaded().modes == ["custom-kept"]
    assert "app 'evil' left out: 'text' must be a string" in caplog.text
    for garbage in (b"\x00\xff not json", b"[1, 2]", b'{"apps": 7}', b"1e400"):
        store.write_bytes(garbage)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            assert loaded().modes == []
        assert "starting with none" in caplog.text, garbage


def test_a_lifetime_ends_the_app(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded()
    wall = time.time()
    push(tmp_path, "short", {"text": "brief", "lifetime": 30}, requested_at=wall - 29.5)
    late = push(tmp_path, "late", {"text": "late", "lifetime": 5}, requested_at=wall - 10)
    plugin.update()
    assert plugin.modes == ["custom-short"]
    assert record(tmp_path)["requests"][late]["outcome"] == "expired"
    assert plugin.display(force_clear=True, display_mode="custom-short") is True
    expires = record(tmp_path)["apps"][0]["expires_at"]
    assert expires == pytest.approx(wall + 0.5)
    while time.time() < expires:  # the lifetime's end is the event waited for
        time.sleep(0.01)
    assert plugin.display(force_clear=True, display_mode="custom-short") is False
    plugin.update()
    assert plugin.modes == [] and record(tmp_path)["apps"] == []


@pytest.mark.parametrize("size", SIZES)
def test_pixel_frames_are_drawn_from_the_top_left_and_loop(
        loaded: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    plugin = loaded(size)
    frames = [[[0, 0, 255, 0, 0], [31, 15, 0, 255, 0], [200, 100, 0, 0, 255]],
              [[1, 1, 0, 0, 255]]]
    push(tmp_path, "anim", {"frames": frames, "frame_ms": 10_000})
    plugin.update()
    assert plugin.display(force_clear=True, display_mode="custom-anim") is True
    image = plugin.display_manager.image
    assert image.getpixel((0, 0)) == RED and image.getpixel((31, 15)) == GREEN
    assert image.getpixel((1, 1)) == BLACK
    assert plugin.needs_high_fps is True
    plugin._slot = ("custom-anim", plugin._slot[1] - 10.0)  # ten seconds on: frame two
    assert plugin.display(display_mode="custom-anim") is True
    image = plugin.display_manager.image
    assert image.getpixel((1, 1)) == BLUE and image.getpixel((0, 0)) == BLACK


@pytest.mark.parametrize("size", SIZES)
def test_text_is_drawn_in_its_colour_with_the_icon_on_the_left(
        loaded: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    plugin = loaded(size)
    icon = {"width": 2, "height": 2, "pixels": ["#0000ff"] * 4}
    push(tmp_path, "hello", {"text": "Hi", "color": [0, 255, 0], "icon": icon})
    plugin.update()
    assert plugin.display(force_clear=True, display_mode="custom-hello") is True
    image = plugin.display_manager.image
    width, height = size
    lit = {(x, y): image.getpixel((x, y)) for x in range(width) for y in range(height)
           if image.getpixel((x, y)) != BLACK}
    blue = [x for (x, _), c in lit.items() if c == BLUE]
    green = [x for (x, _), c in lit.items() if c[1] > 0 and c[0] == c[2] == 0]
    assert blue and green, size
    assert max(blue) < min(green)  # the icon on the left, the text beside it
    assert set(lit.values()) <= {BLUE} | {c for c in lit.values() if c[0] == c[2] == 0}


def test_a_long_text_scrolls_and_its_slot_ends_after_repeat_passes(
        loaded: Any, tmp_path: Path) -> None:
    plugin = loaded((32, 16))
    push(tmp_path, "long", {"text": "a text far too long for a small panel", "repeat": 2,
                            "duration": 1})
    plugin.update()
    assert plugin.get_dynamic_duration_cap() >= 600
    assert plugin.display(force_clear=True, display_mode="custom-long") is True
    assert plugin.needs_high_fps is True  # it scrolls
    first = plugin.display_manager.image.copy()
    plugin._slot = ("custom-long", plugin._slot[1] - 2.0)  # past its duration
    plugin.display(display_mode="custom-long")
    assert plugin.display_manager.image.tobytes() != first.tobytes()  # it moved
    assert not plugin.is_cycle_complete()  # scrolling: repeat decides, not duration
    plugin._slot = ("custom-long", plugin._slot[1] - 120.0)
    plugin.display(display_mode="custom-long")
    assert plugin.is_cycle_complete()


def test_an_app_replaced_while_shown_is_drawn_anew(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded((64, 32))
    for color in (RED, GREEN, RED):  # the same slot all along: only the app changes
        push(tmp_path, "same", {"text": "Same", "color": list(color)})
        push(tmp_path, "dots", {"frames": [[[0, 0, *color]]]})
        plugin.update()
        assert plugin.display(display_mode="custom-same") is True
        colours = {c for _, c in plugin.display_manager.image.getcolors(1 << 16)}
        assert color in colours and ({RED, GREEN} - {color}).isdisjoint(colours), colours
    plugin.display(force_clear=True, display_mode="custom-dots")
    for color in (GREEN, RED):
        push(tmp_path, "dots", {"frames": [[[0, 0, *color]]]})
        plugin.update()
        assert plugin.display(display_mode="custom-dots") is True
        assert plugin.display_manager.image.getpixel((0, 0)) == color


def test_an_icon_alone_is_drawn(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded((64, 32))
    push(tmp_path, "bell", {"icon": "bell"})
    plugin.update()
    assert plugin.display(force_clear=True, display_mode="custom-bell") is True
    assert plugin.display_manager.image.getbbox() is not None


def test_a_text_that_fits_is_drawn_once_per_slot(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded((128, 32))
    push(tmp_path, "short", {"text": "Hi", "repeat": 3, "duration": 4})
    plugin.update()
    assert plugin.display(force_clear=True, display_mode="custom-short") is True
    plugin.display_manager.image.putpixel((0, 0), RED)  # a mark a repaint would clear
    assert plugin.display(display_mode="custom-short") is True
    assert plugin.display_manager.image.getpixel((0, 0)) == RED
    assert plugin.needs_high_fps is False
    plugin._slot = ("custom-short", plugin._slot[1] - 4.0)
    assert plugin.is_cycle_complete()  # it does not scroll: its duration decides


def test_each_app_keeps_its_own_slot_length(loaded: Any, tmp_path: Path) -> None:
    plugin = loaded()
    push(tmp_path, "a", {"text": "a", "duration": 3})
    push(tmp_path, "b", {"text": "b", "duration": 40})
    plugin.update()
    assert plugin.supports_dynamic_duration() and plugin.get_dynamic_duration_cap() == 40.0
    plugin.display(force_clear=True, display_mode="custom-a")
    assert not plugin.is_cycle_complete()
    plugin._slot = ("custom-a", plugin._slot[1] - 3.0)
    assert plugin.is_cycle_complete()
