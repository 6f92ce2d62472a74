"""Code shared by the display and web daemons: no process wiring, no Flask, no rgbmatrix."""

from shared.version import CORE_VERSION

__all__ = ["CORE_VERSION"]
