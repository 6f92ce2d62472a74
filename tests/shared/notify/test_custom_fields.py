"""A custom app's body: every field checked, each refusal one sentence naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from shared.bus.core import CUSTOM_APP_REQUEST, Bus
from shared.notify import custom_fields as cf
from shared.notify.custom_fields import parse_custom_app
from shared.notify.custom_requests import remove_custom_app, set_custom_app


def test_a_text_app_gets_every_field_with_defaults() -> None:
    app, problem = parse_custom_app("door-bell_2", {"text": "Hello", "color": "#ff8800"})
    assert problem is None
    assert app == {"text": "Hello", "icon": None, "color": [255, 136, 0], "duration": 10.0,
                   "repeat": None, "frames": [], "frame_ms": 100, "lifetime": None}


def test_a_frames_app_keeps_its_pixels() -> None:
    frames = [[[0, 0, 255, 0, 0], [3, 2, 0, 255, 0]], [[1, 1, 0, 0, 255]]]
    app, problem = parse_custom_app("anim", {"frames": frames, "frame_ms": 250,
                                             "lifetime": 60, "duration": 5,
                                             "color": [1, 2, 3], "repeat": 2})
    assert problem is None and app is not None
    assert app["frames"] == frames and app["frame_ms"] == 250
    assert (app["lifetime"], app["duration"], app["color"], app["repeat"]) == (
        60.0, 5.0, [1, 2, 3], 2)


@pytest.mark.parametrize("name", ["", "Caps", "-lead", "a" * 33, "sp ace", "dot.", "é", 5,
                                  None, "../x"])
def test_bad_names_are_refused(name: Any) -> None:
    app, problem = parse_custom_app(name, {"text": "x"})
    assert app is None and problem is not None and "custom app name" in problem


@pytest.mark.parametrize(("body", "field"), [
    ({"text": "x", "colour": "#fff"}, "unknown field 'colour':"),
    ({"text": 5}, "'text'"),
    ({"text": "x" * (cf.MAX_TEXT + 1)}, "'text'"),
    ({"text": "a\x07b"}, "'text'"),
    ({"icon": "Bad Icon"}, "'icon'"),
    ({"icon": {"width": 2}}, "'icon'"),
    ({"text": "x", "color": "red"}, "'color'"),
    ({"text": "x", "color": [256, 0, 0]}, "'color'"),
    ({"text": "x", "color": [True, 0, 0]}, "'color'"),
    ({"text": "x", "duration": 0}, "'duration'"),
    ({"text": "x", "duration": 3601}, "'duration'"),
    ({"text": "x", "duration": "5"}, "'duration'"),
    ({"text": "x", "repeat": 0}, "'repeat'"),
    ({"text": "x", "repeat": 1.5}, "'repeat'"),
    ({"text": "x", "lifetime": -1}, "'lifetime'"),
    ({"text": "x", "lifetime": float("inf")}, "'lifetime'"),
    ({"text": "x", "frame_ms": 5}, "'frame_ms'"),
    ({"frames": {}}, "'frames' must be"),
    ({"frames": []}, "'text' is needed"),
    ({"frames": [[[0, 0, 0, 0]]]}, "'frames': frame 0: pixel 0"),
    ({"frames": [[[0, 0, 0, 0, 256]]]}, "'frames': frame 0: pixel 0"),
    ({"frames": [[[cf.MAX_X + 1, 0, 0, 0, 0]]]}, "'frames': frame 0: pixel 0"),
    ({"frames": [[], "x"]}, "'frames': frame 1"),
    ({}, "'text' is needed"),
    ({"text": ""}, "'text' is needed"),
])
def test_each_bad_field_is_refused_by_name(body: dict[str, Any], field: str) -> None:
    app, problem = parse_custom_app("ok", body)
    assert app is None and problem is not None and problem.startswith(field), problem


def test_a_checked_app_checks_again_as_itself() -> None:
    pixel_icon = {"width": 1, "height": 2, "pixels": ["#ff0000", None]}
    for body in ({"text": "x"}, {"frames": [[[0, 0, 1, 2, 3]]], "lifetime": 5, "icon": "bell"},
                 {"icon": pixel_icon}):
        app, _ = parse_custom_app("a", body)
        assert app is not None and parse_custom_app("a", app) == (app, None)


def test_a_body_that_is_no_object_is_refused() -> None:
    assert parse_custom_app("ok", ["text"]) == (None, "the custom app must be a JSON object")


def test_frames_are_bounded_in_count_pixels_per_frame_and_pixels_in_all() -> None:
    pixel = [0, 0, 1, 1, 1]
    too_many = [[pixel]] * (cf.MAX_FRAMES + 1)
    _, problem = parse_custom_app("f", {"frames": too_many})
    assert problem == (f"'frames' has {cf.MAX_FRAMES + 1} frames; at most {cf.MAX_FRAMES} "
                       "are allowed")
    _, problem = parse_custom_app("f", {"frames": [[pixel] * (cf.MAX_FRAME_PIXELS + 1)]})
    assert problem is not None and "frame 0 has" in problem
    per_frame = cf.MAX_PIXELS // 2 + 1
    per_frame = min(per_frame, cf.MAX_FRAME_PIXELS)
    frames = [[pixel] * per_frame] * (cf.MAX_PIXELS // per_frame + 1)
    _, problem = parse_custom_app("f", {"frames": frames})
    assert problem == f"'frames' holds more than {cf.MAX_PIXELS} pixels in all"
    fits = [[pixel] * cf.MAX_FRAME_PIXELS] * (cf.MAX_PIXELS // cf.MAX_FRAME_PIXELS)
    assert parse_custom_app("f", {"frames": fits})[1] is None


def test_requests_go_on_the_bus_queue(tmp_path: Any) -> None:
    bus = Bus(tmp_path)
    app, _ = parse_custom_app("a", {"text": "x"})
    assert app is not None
    set_id = set_custom_app(bus, "a", app, "http")
    remove_id = remove_custom_app(bus, "a", "mqtt")
    taken = bus.take_all(CUSTOM_APP_REQUEST)
    assert [(t["action"], t["name"], t["source"], t["request_id"]) for t in taken] == [
        ("set", "a", "http", set_id), ("remove", "a", "mqtt", remove_id)]
    assert taken[0]["app"] == app and isinstance(taken[0]["requested_at"], float)
    with pytest.raises(ValueError):
        set_custom_app(bus, "a", app, "ftp")
