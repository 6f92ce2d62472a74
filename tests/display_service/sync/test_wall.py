"""A leader's wall: its panel shows its part, each side's part goes out when it changed."""

from __future__ import annotations

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.sync.messages import BadMessage
from display_service.sync.wall import (
    MAX_FRAME,
    WallBackend,
    decode_frame,
    encode_frame,
    wall_sides,
)


def picture(width: int, colors: list[tuple[int, int, int]]) -> Image.Image:
    """A canvas of ``len(colors)`` parts ``width`` wide, each filled with its colour."""
    image = Image.new("RGB", (width * len(colors), 4))
    for index, color in enumerate(colors):
        image.paste(color, (index * width, 0, (index + 1) * width, 4))
    return image


def test_the_leaders_panel_shows_its_part_and_the_sides_go_out_once_per_change() -> None:
    inner = HeadlessMatrix(8, 4)
    wall = WallBackend(inner, ("left", "right"))
    sent: list[tuple[str, bytes]] = []
    wall.sink = lambda side, payload: sent.append((side, payload))
    assert (wall.width, wall.height) == (24, 4)
    red, green, blue = (255, 0, 0), (0, 255, 0), (0, 0, 255)
    wall.show(picture(8, [red, green, blue]))
    assert inner.last_frame is not None and inner.last_frame.getcolors() == [(32, green)]
    frames = {side: decode_frame("lead", side, payload) for side, payload in sent}
    assert Image.frombytes("RGB", (8, 4), frames["left"].rgb).getcolors() == [(32, red)]
    assert Image.frombytes("RGB", (8, 4), frames["right"].rgb).getcolors() == [(32, blue)]
    wall.show(picture(8, [red, blue, blue]))  # only the leader's own part changed
    assert len(sent) == 2
    wall.show(picture(8, [green, blue, blue]))
    assert [side for side, _ in sent[2:]] == ["left"]


def test_a_frame_reads_back_and_anything_else_is_refused() -> None:
    payload = encode_frame(5, Image.new("RGB", (3, 2), (1, 2, 3)))
    frame = decode_frame("lead", "right", payload)
    assert (frame.leader, frame.side, frame.seq, frame.width, frame.height) == (
        "lead", "right", 5, 3, 2)
    assert frame.rgb == bytes([1, 2, 3]) * 6


@pytest.mark.parametrize(("payload", "why"), [
    (b"LPW1", "shorter than its header"),
    (b"XXXX" + bytes(8), "LPW1"),
    (b"LPW1\0\0\0\1\0\2\0\1" + bytes(5), "is not 2x1 RGB"),
    (b"LPW1\0\0\0\1\x10\0\0\1", "at most 512x256"),
    (bytes(MAX_FRAME + 1), "at most"),
])
def test_a_frame_that_is_not_one_is_refused(payload: bytes, why: str) -> None:
    with pytest.raises(BadMessage, match=why):
        decode_frame("lead", "left", payload)


def test_only_a_leader_with_a_wall_setting_gets_a_wider_canvas() -> None:
    assert wall_sides({"sync": {"role": "leader", "wall": "both"}}) == ("left", "right")
    assert wall_sides({"sync": {"role": "leader", "wall": "left"}}) == ("left",)
    assert wall_sides({"sync": {"role": "follower", "wall": "left"}}) == ()
    assert wall_sides({"sync": {"role": "leader", "wall": "up"}}) == ()
    assert wall_sides({}) == ()
