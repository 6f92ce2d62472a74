"""The existing system's harness module (``src.plugin_system.testing.harness``).

``render_plugin_matrix(plugin_id, plugin_dir, config=None, mock_data=None, sizes=None,
run_update=True, freeze_time=None)`` renders every (size, mode) of a plugin, a fresh
instance each, and returns one ``RenderResult`` per render, in that harness's shape
(``image``, ``error``, ``update_error``, ``overflow``, the golden/empty/fill fields the
checks fill in, ``ok``). Each render is ours (``render_plugin``: the device's loader and
config preparation, a bounds-checking panel). ``sizes`` defaults to
``DEFAULT_TEST_SIZES``; ``mock_data`` seeds the plugin's cache before update();
``freeze_time`` (``"2025-08-01 15:25:00"``) freezes the clock with ``freezegun``
(RuntimeError when it is not installed). An update() failure that is a connectivity
error (no network in a check) is ``update_error``; any other is the render's ``error``.
A frame with nothing lit from a display() that did not return False is not believed at
once: the mode is rendered again for ``EMPTY_RECHECK_FRAMES`` (48) frames and the first
lit one kept (a scroll starts off the panel), as that harness does; our frames are not
paced, so a scroll timed by the clock may still show blank. The checks are in
``harness_checks``.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from shared.plugin_system.testing import render
from shared.plugin_system.testing.harness_checks import (
    check_empty_claimed,
    check_scale_up,
    compare_images,
    compare_to_goldens,
    fill_metrics,
    golden_path,
    write_goldens,
)
from shared.plugin_system.testing.sizes import DEFAULT_TEST_SIZES, Size, size_label

list_modes = render.plugin_modes
EMPTY_RECHECK_FRAMES = 48
OFFLINE_ERRORS: tuple[type[BaseException], ...] = (
    ConnectionError, TimeoutError, socket.gaierror, ssl.SSLError, urllib.error.URLError,
    http.client.HTTPException)
try:
    import requests

    OFFLINE_ERRORS += (requests.exceptions.RequestException,)
except ImportError:  # pragma: no cover - requests is a runtime dependency
    pass


@dataclass
class RenderResult:
    """One (size, mode) render of a plugin, in the existing system's shape."""

    plugin_id: str
    width: int
    height: int
    mode: str
    image: Image.Image | None = None
    error: str | None = None
    update_error: str | None = None
    overflow: tuple[int, int, int, int] | None = None
    golden_checked: bool = False
    golden_ok: bool | None = None
    golden_diff_pixels: int = 0
    golden_max_delta: int = 0
    display_returned: Any = None
    empty_claimed: bool | None = None
    empty_ok: bool | None = None
    fill_checked: bool = False
    fill_ok: bool | None = None
    fill_extent: tuple[float, float] | None = None

    @property
    def size_label(self) -> str:
        """``WxH``."""
        return size_label(self.width, self.height)

    @property
    def ok(self) -> bool:
        """True without an error, an overflow, a differing golden or a strict failure."""
        return (self.error is None and self.overflow is None and self.golden_ok is not False
                and self.fill_ok is not False and self.empty_ok is not False)


def render_plugin_matrix(plugin_id: str, plugin_dir: Path | str,
                         config: dict[str, Any] | None = None,
                         mock_data: dict[str, Any] | None = None,
                         sizes: list[Size] | None = None, run_update: bool = True,
                         freeze_time: str | None = None) -> list[RenderResult]:
    """Render every (size, mode) of the plugin in ``plugin_dir``; one result each."""
    results: list[RenderResult] = []

    def seed(instance: Any) -> None:
        for key, value in (mock_data or {}).items():
            instance.cache_manager.set(key, value)

    with _frozen(freeze_time):
        for width, height in sizes or DEFAULT_TEST_SIZES:
            first = render.render_plugin(plugin_dir, (width, height), config,
                                         run_update=run_update, prepare=seed)
            if first.error_class in ("ManifestError", "PluginError"):
                results.append(RenderResult(plugin_id, width, height, "<load>",
                                            error=first.error or first.error_class))
                continue
            for mode in first.modes:
                done = first if mode == first.mode else render.render_plugin(
                    plugin_dir, (width, height), config, mode, run_update=run_update,
                    prepare=seed)
                result = _converted(plugin_id, (width, height), mode, done)
                if _blank_but_claimed(result):
                    _settle(result, render.render_plugin(
                        plugin_dir, (width, height), config, mode, EMPTY_RECHECK_FRAMES,
                        run_update=run_update, prepare=seed))
                results.append(result)
    return results


def _blank_but_claimed(result: RenderResult) -> bool:
    return (result.error is None and result.image is not None
            and result.display_returned is not False and fill_metrics(result.image)[0] == 0)


def _settle(result: RenderResult, again: render.RenderResult) -> None:
    """Keep the first lit frame of a longer run (a scroll's first frame is blank)."""
    for image in again.images:
        if fill_metrics(image)[0] > 0:
            result.image, result.overflow = image, again.overflow
            return
    if again.error_class is not None:  # it drew one blank frame and then crashed
        result.error = again.error or again.error_class


def _converted(plugin_id: str, size: Size, mode: str, done: render.RenderResult) -> RenderResult:
    result = RenderResult(plugin_id, size[0], size[1], mode,
                          image=done.images[-1] if done.images else None,
                          overflow=done.overflow, display_returned=done.display_returned)
    failed = done.update_exception
    if failed is not None and isinstance(failed, OFFLINE_ERRORS):
        result.update_error = repr(failed)
    elif failed is not None:
        result.error = repr(failed)
    if done.error_class is not None:
        result.error = done.error or done.error_class
    return result


@contextlib.contextmanager
def _frozen(freeze_time: str | None) -> Iterator[None]:
    if not freeze_time:
        yield
        return
    try:
        from freezegun import freeze_time as freezer
    except ImportError as err:
        raise RuntimeError("freeze_time needs the freezegun package "
                           "(pip install freezegun)") from err
    with freezer(freeze_time):
        yield


__all__ = [
    "RenderResult", "check_empty_claimed", "check_scale_up", "compare_images",
    "compare_to_goldens", "fill_metrics", "golden_path", "list_modes", "render_plugin_matrix",
    "write_goldens",
]
