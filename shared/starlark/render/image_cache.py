"""Decoded pictures kept by their bytes, so an app's 800 Image widgets of one sprite decode once.

Apps build a fresh ``render.Image`` for every place a picture appears, often the same
few files hundreds of times a render. The decoded frames are shared between those
widgets (nothing paints into them: ``Canvas.paste`` crops a copy), kept least recently
used first out, bounded by the pixels held (``MAX_PIXELS``, 1 MB of RGBA by default) so
a process showing many apps holds at most that much more. A picture larger than the
whole bound is decoded every time, as before. Decoding errors are not kept.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable

from PIL import Image as PILImage

MAX_PIXELS = 1 << 18

Decoded = tuple[list[PILImage.Image], int]


class DecodedPictures:
    """A bounded, thread-safe map from a picture's bytes to its decoded frames and delay."""

    def __init__(self, max_pixels: int = MAX_PIXELS) -> None:
        self.max_pixels = max_pixels
        self._entries: OrderedDict[bytes, tuple[tuple[PILImage.Image, ...], int, int]] = \
            OrderedDict()
        self._pixels = 0
        self._lock = threading.Lock()

    def get(self, src: bytes, decode: Callable[[bytes], Decoded]) -> Decoded:
        """The frames and delay of ``src``: kept ones, or ``decode(src)`` (then kept if small)."""
        key = hashlib.sha256(src).digest()
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return list(found[0]), found[1]
        frames, delay = decode(src)
        pixels = sum(frame.width * frame.height for frame in frames)
        if pixels <= self.max_pixels:
            self._keep(key, (tuple(frames), delay, pixels))
        return list(frames), delay

    def _keep(self, key: bytes, entry: tuple[tuple[PILImage.Image, ...], int, int]) -> None:
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = entry
            self._pixels += entry[2]
            while self._pixels > self.max_pixels:
                _key, (_frames, _delay, pixels) = self._entries.popitem(last=False)
                self._pixels -= pixels

    def __len__(self) -> int:
        return len(self._entries)


DECODED = DecodedPictures()
