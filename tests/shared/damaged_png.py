"""Damaged PNG files, as a broken transfer or a damaged disk leaves them."""

from __future__ import annotations

import io
import struct

from PIL import Image


def bad_checksum_png() -> bytes:
    """A PNG whose image data chunk carries a wrong CRC (a damaged transfer)."""
    out = io.BytesIO()
    Image.new("RGB", (20, 20), (200, 10, 10)).save(out, "PNG")
    data = bytearray(out.getvalue())
    at = data.find(b"IDAT")
    length = struct.unpack(">I", data[at - 4:at])[0]
    data[at + 4 + length] ^= 0xFF
    return bytes(data)


def broken_chunk_png() -> bytes:
    """A PNG whose second image data chunk has a garbled type (Pillow: SyntaxError)."""
    out = io.BytesIO()
    Image.new("RGB", (200, 200)).save(out, "PNG", compress_level=0)
    data = bytearray(out.getvalue())
    second = data.find(b"IDAT", data.find(b"IDAT") + 4)
    data[second:second + 4] = b"\x00\x01\x02\x03"
    return bytes(data)
