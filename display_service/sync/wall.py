"""A wall: the leader's picture drawn as wide as the leader and its side panels.

With ``sync.wall`` (``left``, ``right`` or ``both``) a leader's plugins draw on a
canvas one panel wider per side (``WallBackend``, wrapped around the backend when the
display starts, like ``display.double_sided``). The leader's own panel shows its part;
each side's part is published as a frame on ``frame-left``/``frame-right`` whenever it
changed (retained, so a follower starting later gets the picture at once). A follower
whose ``sync.follower_position`` is that side shows those frames (``WallView``, the
compositor's ``wall`` layer) while its leader is alive: the leader's content continues
across the wall. Side panels are taken to be the leader's size; a follower of another
size shows the frame from its top left corner, cut or padded.

Frame payload: ``FRAME_HEADER`` (magic ``LPW1``, seq, width, height) then the RGB
bytes, row by row. Anything else is refused (``messages.BadMessage``).
"""

from __future__ import annotations

import logging
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.wrapper import BackendWrapper
from display_service.sync.messages import BadMessage
from shared.config.values import WALL_SIDES

FRAME_HEADER = struct.Struct(">4sIHH")
MAGIC = b"LPW1"
MAX_WIDTH, MAX_HEIGHT = 512, 256
MAX_FRAME = FRAME_HEADER.size + MAX_WIDTH * MAX_HEIGHT * 3
logger = logging.getLogger(__name__)
WALL = "wall"  # the compositor's layer while a follower shows its part of the wall


@dataclass(frozen=True)
class Frame:
    """One side's part of a leader's picture."""

    leader: str
    side: str
    seq: int
    width: int
    height: int
    rgb: bytes


def encode_frame(seq: int, image: Image.Image) -> bytes:
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    return FRAME_HEADER.pack(MAGIC, seq % 2**32, rgb.width, rgb.height) + rgb.tobytes()


def decode_frame(leader: str, side: str, payload: bytes) -> Frame:
    """Return the frame in ``payload``; raise BadMessage saying why it is not one."""
    if len(payload) > MAX_FRAME:
        raise BadMessage(f"frame of {len(payload)} bytes (at most {MAX_FRAME})")
    if len(payload) < FRAME_HEADER.size:
        raise BadMessage("frame shorter than its header")
    magic, seq, width, height = FRAME_HEADER.unpack_from(payload)
    if magic != MAGIC:
        raise BadMessage("frame does not start with LPW1")
    if not (1 <= width <= MAX_WIDTH and 1 <= height <= MAX_HEIGHT):
        raise BadMessage(f"frame of {width}x{height} (at most {MAX_WIDTH}x{MAX_HEIGHT})")
    if len(payload) != FRAME_HEADER.size + width * height * 3:
        raise BadMessage(f"frame of {len(payload)} bytes is not {width}x{height} RGB")
    return Frame(leader, side, seq, width, height, payload[FRAME_HEADER.size:])


def wall_sides(config: dict[str, Any]) -> tuple[str, ...]:
    """Return the sides a leader's config adds to its picture (empty: no wall)."""
    sync = config.get("sync")
    wall = sync.get("wall") if isinstance(sync, dict) else None
    leader = isinstance(sync, dict) and sync.get("role") == "leader"
    if not leader or wall not in WALL_SIDES[1:]:
        return ()
    return ("left", "right") if wall == "both" else (str(wall),)


class WallBackend(BackendWrapper):
    """A canvas as wide as the wall; the panel shows the leader's part, ``sink`` the rest."""

    def __init__(self, backend: MatrixBackend, sides: tuple[str, ...]) -> None:
        super().__init__(backend)
        self.sides = sides
        self.sink: Callable[[str, bytes], None] | None = None
        self._sent: dict[str, bytes] = {}
        self._seq = 0

    @property
    def width(self) -> int:
        return self.inner.width * (1 + len(self.sides))

    def part(self, side: str) -> int:
        """Return where ``side``'s part (``own`` for the leader's) starts on the canvas."""
        own = self.inner.width if "left" in self.sides else 0
        return {"left": 0, "own": own, "right": own + self.inner.width}[side]

    def show(self, image: Image.Image) -> None:
        self.inner.show(self._crop(image, "own"))
        sink = self.sink
        if sink is None:
            return
        for side in self.sides:
            part = self._crop(image, side)
            raw = part.tobytes()
            if raw != self._sent.get(side):
                self._sent[side] = raw
                self._seq += 1
                sink(side, encode_frame(self._seq, part))
                if logger.isEnabledFor(logging.DEBUG):  # bench/panel_sync.py reads these
                    logger.debug("sync: wall frame %d %s sent at %.4f", self._seq, side,
                                 time.time())

    def clear(self) -> None:
        self.show(Image.new("RGB", (self.width, self.height)))
        self.inner.clear()

    def _crop(self, image: Image.Image, side: str) -> Image.Image:
        x = self.part(side)
        part = image.crop((x, 0, x + self.inner.width, self.height))
        return part if part.mode == "RGB" else part.convert("RGB")


def wrap_wall(backend: MatrixBackend, config: dict[str, Any]) -> MatrixBackend:
    """Return ``backend`` widened for a leader's wall (read at start), else itself."""
    sides = wall_sides(config)
    return WallBackend(backend, sides) if sides else backend


class WallView:
    """A follower's part of its leader's wall, drawn by the compositor's ``wall`` layer."""

    def __init__(self, display: Any) -> None:
        self.display = display
        self.frame: Frame | None = None
        self.shown: Frame | None = None

    def configure(self, config: dict[str, Any]) -> None:
        """Nothing to take: the sync link sets and clears ``frame``."""

    def active(self) -> bool:
        return self.frame is not None

    def render(self, now: float, force: bool) -> float:
        """Draw the newest frame; return when to look again (a new frame wakes the loop)."""
        frame = self.frame
        if frame is not None and (force or frame is not self.shown):
            self.shown = frame
            picture = Image.frombytes("RGB", (frame.width, frame.height), frame.rgb)
            self.display.clear()
            self.display.image.paste(picture, (0, 0))
            self.display.update_display()
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug("sync: wall frame %d %s drawn at %.4f", frame.seq, frame.side,
                             time.time())
        return now + 1.0

    def status(self, now: float) -> dict[str, Any]:
        return {"plugin_id": None, "mode": WALL}
