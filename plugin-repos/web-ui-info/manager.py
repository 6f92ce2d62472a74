"""Web UI Info: show where to reach the web interface (host name, IP address, port).

The address shown is the one the web daemon really listens on, as it published it
(``plugin_manager.web_address()``): its port, and for a server on every interface the
machine's primary IPv4 address, ``localhost`` for one bound to loopback only. While no
web daemon runs the panel says so instead of an address that would not answer. A
plugin manager without ``web_address`` (an older host) gets ``web.port`` from the
config.

The host name and primary address are looked up in ``update()`` (off the render
thread); ``display()`` only draws. Finding the primary IPv4 address sends no traffic:
``connect()`` on a UDP socket only asks the kernel which route (and so which local
address) it would use. Text is fitted to the panel from ``display_manager.width`` and
``height``, so it works when ``display_manager.matrix`` is ``None`` (no hardware).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from shared.plugin_api.base_plugin import BasePlugin

DEFAULT_PORT = 5000
NOT_RUNNING = "not running"
EVERY_INTERFACE = ("", "0.0.0.0", "::")
DEFAULT_TITLE = "Web UI"
DEFAULT_TITLE_COLOR = (0, 160, 255)
DEFAULT_TEXT_COLOR = (255, 255, 255)
FONT_SIZES = (16, 14, 12, 11, 10, 9, 8, 7, 6)
MIN_ROW_HEIGHT = 6
# TEST-NET-1 (RFC 5737): never routed to a real host, and UDP connect() sends nothing.
_ROUTE_PROBE = ("192.0.2.1", 9)
_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


@dataclass(frozen=True)
class PlacedText:
    """One line of text, with its font and top-left drawing position."""

    text: str
    font: Any
    x: int
    y: int
    color: tuple[int, int, int]


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified)


def primary_ipv4() -> str | None:
    """Return the host's primary IPv4 address (not loopback), or None when there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = probe.getsockname()[0]
        if _usable(address):
            return str(address)
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(info[4][0]) for info in infos if _usable(str(info[4][0]))), None)


def web_port(config: dict[str, Any]) -> int:
    """Return the web interface port from the core config (``web.port``), else 5000."""
    web = config.get("web") if isinstance(config, dict) else None
    port = web.get("port") if isinstance(web, dict) else None
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
        return port
    return DEFAULT_PORT


def shown_address(listen_host: str, primary: str | None) -> str | None:
    """Return the address to show for a server bound to ``listen_host``.

    Every interface: the primary IPv4 address (None when there is none: the host name
    is shown). Loopback only: ``localhost``, reachable on the device itself. Anything
    else: that address.
    """
    if listen_host in EVERY_INTERFACE:
        return primary
    if listen_host == "localhost":
        return "localhost"
    try:
        return "localhost" if ipaddress.ip_address(listen_host).is_loopback else listen_host
    except ValueError:
        return listen_host


def info_lines(
    title: str, hostname: str, address: str | None, port: int | None, *,
    show_ip: bool = True, show_hostname: bool = True,
) -> list[tuple[str, int]]:
    """Return ``(text, priority)`` lines in display order; lower priority numbers matter more.

    ``port`` None: the web interface is not running, and the panel says so.
    """
    if port is None:
        return [(title, 1), (NOT_RUNNING, 0)]
    if address == "localhost":
        return [(title, 1), (f"localhost:{port}", 0)]
    if not (show_ip and address):
        return [(title, 1), (f"{hostname}:{port}", 0)]
    lines = [(title, 2)]
    if show_hostname:
        lines.append((hostname, 1))
    lines.append((f"{address}:{port}", 0))
    return lines


@lru_cache(maxsize=32)
def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError, ImportError):  # no FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _ink(text: str, font: Any) -> tuple[int, int, int, int]:
    left, top, right, bottom = _MEASURE.textbbox((0, 0), text, font=font)
    return int(left), int(top), int(right), int(bottom)


def _fit(text: str, width: int, row_height: int) -> tuple[str, Any]:
    """Return the text (trimmed if it must be) and the largest font that fits the box."""
    for size in FONT_SIZES:
        font = _font(size)
        left, top, right, bottom = _ink(text, font)
        if right - left <= width and bottom - top <= row_height:
            return text, font
    font = _font(FONT_SIZES[-1])
    trimmed = text
    while trimmed and _ink(trimmed + "..", font)[2] > width:
        trimmed = trimmed[:-1]
    return (trimmed + ".." if trimmed else ""), font


def layout(
    lines: list[tuple[str, int]], width: int, height: int,
    colors: tuple[tuple[int, int, int], tuple[int, int, int]] = (
        DEFAULT_TITLE_COLOR, DEFAULT_TEXT_COLOR),
) -> list[PlacedText]:
    """Place as many lines as fit the panel, most important first, each centred in its row."""
    rows = max(1, min(len(lines), height // MIN_ROW_HEIGHT, 3))
    keep = sorted(sorted(lines, key=lambda line: line[1])[:rows], key=lines.index)
    row_height = height // len(keep)
    placed = []
    for index, (text, _priority) in enumerate(keep):
        fitted, font = _fit(text, width, row_height)
        left, top, right, bottom = _ink(fitted, font)
        x = (width - (right - left)) // 2 - left
        y = index * row_height + (row_height - (bottom - top)) // 2 - top
        color = colors[0] if index == 0 and len(keep) > 1 else colors[1]
        placed.append(PlacedText(fitted, font, x, y, color))
    return placed


def _color(value: Any, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        return (value[0], value[1], value[2])
    return default


class WebUIInfoPlugin(BasePlugin):
    """Shows the web interface's address on the panel."""

    def __init__(
        self, plugin_id: str, config: dict[str, Any], display_manager: Any,
        cache_manager: Any, plugin_manager: Any,
    ) -> None:
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self._names: tuple[str, str | None] | None = None
        self._frame_key: tuple[Any, ...] | None = None
        self._frame: Image.Image | None = None

    def update(self) -> None:
        """Look up the host name and the primary IPv4 address."""
        self._names = (socket.gethostname() or "localhost", primary_ipv4())

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        """Draw the address lines onto the panel."""
        width, height = int(self.display_manager.width), int(self.display_manager.height)
        frame = self._render(width, height, self._where())
        if force_clear:
            self.display_manager.clear()
        self.display_manager.image.paste(frame, (0, 0))
        self.display_manager.update_display()
        return True

    def current_lines(self, width: int, height: int) -> list[PlacedText]:
        """Return the lines as they would be placed on a panel of this size."""
        hostname, address, port = self._where()
        lines = info_lines(
            str(self.config.get("title", DEFAULT_TITLE)), hostname, address, port,
            show_ip=self.config.get("show_ip", True) is not False,
            show_hostname=self.config.get("show_hostname", True) is not False,
        )
        colors = (_color(self.config.get("title_color"), DEFAULT_TITLE_COLOR),
                  _color(self.config.get("text_color"), DEFAULT_TEXT_COLOR))
        return layout(lines, width, height, colors)

    def on_config_change(self, new_config: dict[str, Any]) -> None:
        """Take the new config and redraw on the next frame."""
        super().on_config_change(new_config)
        self._frame_key = None

    def _where(self) -> tuple[str, str | None, int | None]:
        """Return the host name, the address to show and the port (None: not running)."""
        if self._names is None:
            self.update()
        assert self._names is not None
        hostname, primary = self._names
        web_address = getattr(self.plugin_manager, "web_address", None)
        if not callable(web_address):
            return hostname, primary, web_port(self._core_config())
        try:
            listening = web_address()
        except Exception:  # the address is a nicety: never fail the plugin over it
            self.logger.debug("could not read where the web interface listens", exc_info=True)
            listening = None
        if not listening:
            return hostname, primary, None
        return hostname, shown_address(listening["host"], primary), int(listening["port"])

    def _render(self, width: int, height: int,
                host: tuple[str, str | None, int | None]) -> Image.Image:
        key = (width, height, host)
        if self._frame is None or self._frame_key != key:
            frame = Image.new("RGB", (width, height))
            draw = ImageDraw.Draw(frame)
            for line in self.current_lines(width, height):
                draw.text((line.x, line.y), line.text, font=line.font, fill=line.color)
            self._frame, self._frame_key = frame, key
        return self._frame

    def _core_config(self) -> dict[str, Any]:
        config_manager = getattr(self.plugin_manager, "config_manager", None)
        load = getattr(config_manager, "load_config", None)
        try:
            config = load() if callable(load) else {}
        except Exception:  # the port is a nicety: never fail the plugin over it
            self.logger.warning("could not read the core config; using port %d", DEFAULT_PORT)
            config = {}
        return config if isinstance(config, dict) else {}
