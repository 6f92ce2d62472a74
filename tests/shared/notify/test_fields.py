"""The notification body check shared by the web and the MQTT bridge: every refusal."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from PIL import Image

from shared.notify.fields import MAX_TEXT, parse_notification


def png(width: int, height: int, fmt: str = "PNG") -> str:
    buffer = io.BytesIO()
    Image.new("RGBA", (width, height), (255, 0, 0, 255)).save(buffer, fmt)
    return base64.b64encode(buffer.getvalue()).decode()


def test_defaults_fill_every_field() -> None:
    checked, problem = parse_notification({"text": "  Door\nopen  "})
    assert problem is None
    assert checked == {"text": "Door open", "icon": None, "color": [255, 255, 255],
                       "duration": 8.0, "repeat": None, "priority": "normal",
                       "behavior": "queue"}


def test_every_field_given() -> None:
    checked, problem = parse_notification({
        "text": "Ring", "icon": "bell", "color": "#ff8000", "duration": 20, "repeat": 3,
        "priority": "critical", "behavior": "now"})
    assert problem is None and checked is not None
    assert checked["icon"] == {"kind": "builtin", "name": "bell"}
    assert checked["color"] == [255, 128, 0]
    assert (checked["duration"], checked["repeat"]) == (20.0, 3)
    assert (checked["priority"], checked["behavior"]) == ("critical", "now")


def test_icon_forms() -> None:
    stored, _ = parse_notification({"text": "x", "icon": "my-doorbell"})
    assert stored is not None and stored["icon"] == {"kind": "asset", "name": "my-doorbell"}
    picture, _ = parse_notification({"text": "x", "icon": "data:image/png;base64," + png(2, 1)})
    assert picture is not None
    assert picture["icon"] == {"kind": "pixels", "width": 2, "height": 1,
                               "pixels": [[255, 0, 0], [255, 0, 0]]}
    gif, _ = parse_notification({"text": "x", "icon": png(8, 8, "GIF")})
    assert gif is not None and gif["icon"]["width"] == 8
    pixels, _ = parse_notification({"text": "x", "icon": {
        "width": 2, "height": 1, "pixels": ["#00ff00", None]}})
    assert pixels is not None and pixels["icon"]["pixels"] == [[0, 255, 0], None]


REFUSALS: list[tuple[Any, str]] = [
    ([], "JSON object"),
    ({}, "'text' is required"),
    ({"text": 5}, "'text' must be a string"),
    ({"text": "   "}, "'text' must not be empty"),
    ({"text": "x" * (MAX_TEXT + 1)}, "'text' is longer"),
    ({"text": "x", "sound": "chime"}, "'sound' is not supported"),
    ({"text": "x", "rtttl": "a:d=4"}, "'rtttl' is not supported"),
    ({"text": "x", "blink": 1}, "unknown field 'blink'"),
    ({"text": "x", "blink": 1, "rainbow": 1}, "unknown fields 'blink', 'rainbow'"),
    ({"text": "x", "color": "red"}, "'color' must be"),
    ({"text": "x", "color": [1, 2]}, "'color' must be"),
    ({"text": "x", "color": [1, 2, 256]}, "'color' must be"),
    ({"text": "x", "color": [True, 2, 3]}, "'color' must be"),
    ({"text": "x", "duration": 0}, "'duration' must be"),
    ({"text": "x", "duration": 601}, "'duration' must be"),
    ({"text": "x", "duration": "5"}, "'duration' must be"),
    ({"text": "x", "duration": True}, "'duration' must be"),
    ({"text": "x", "repeat": 0}, "'repeat' must be"),
    ({"text": "x", "repeat": 21}, "'repeat' must be"),
    ({"text": "x", "repeat": 1.5}, "'repeat' must be"),
    ({"text": "x", "priority": "urgent"}, "'priority' must be one of low, normal, high, critical"),
    ({"text": "x", "behavior": "later"}, "'behavior' must be one of now, next, queue"),
    ({"text": "x", "icon": 3}, "'icon' must be"),
    ({"text": "x", "icon": "not base64 !!"}, "'icon' must be a built-in icon name"),
    ({"text": "x", "icon": png(33, 8)}, "at most 32x32"),
    ({"text": "x", "icon": base64.b64encode(b"GIF89a-not-really").decode()},
     "could not be read"),
    ({"text": "x", "icon": "A" * 30000}, "larger than 16 KiB"),
    ({"text": "x", "icon": {"width": 2, "height": 1, "pixels": [[0, 0, 0]]}},
     "'icon' pixels must be a list of width x height (2)"),
    ({"text": "x", "icon": {"width": 0, "height": 1, "pixels": []}}, "'icon' width and height"),
    ({"text": "x", "icon": {"width": 40, "height": 1, "pixels": []}}, "'icon' width and height"),
    ({"text": "x", "icon": {"width": 1, "height": 1, "pixels": ["#zz0000"]}},
     "'icon pixel 0' must be"),
    ({"text": "x", "icon": {"width": 1, "height": 1, "pixels": [None], "x": 1}},
     "'icon' has unknown field 'x'"),
]


@pytest.mark.parametrize(("body", "expected"), REFUSALS)
def test_refusals_name_the_field(body: Any, expected: str) -> None:
    checked, problem = parse_notification(body)
    assert checked is None
    assert problem is not None and expected in problem
    assert "\n" not in problem


def test_a_jpeg_is_refused() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, "JPEG")
    _checked, problem = parse_notification(
        {"text": "x", "icon": base64.b64encode(buffer.getvalue()).decode()})
    assert problem == "'icon' image must be a PNG or a GIF"


@pytest.mark.parametrize("icon", ["bell", "my-icon", {"width": 1, "height": 1, "pixels": [None]},
                                  png(3, 2)])
def test_a_checked_body_checks_again_unchanged(icon: Any) -> None:
    checked, _ = parse_notification({"text": "x", "icon": icon, "repeat": 2})
    again, problem = parse_notification(checked)
    assert problem is None and again == checked


@pytest.mark.parametrize("icon", [{"kind": "builtin", "name": "nope"}, {"kind": "asset"},
                                  {"kind": "asset", "name": "../x"}, {"kind": "other"},
                                  {"kind": "builtin", "name": "bell", "x": 1}])
def test_a_malformed_checked_icon_is_refused(icon: Any) -> None:
    _checked, problem = parse_notification({"text": "x", "icon": icon})
    assert problem is not None and "'icon' kind" in problem
