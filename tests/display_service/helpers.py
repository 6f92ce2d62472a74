"""Tiny plugins and a plugin host with the ``PluginManager`` surface, for loop tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from display_service.loop.render_loop import RenderLoop
from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.bus.core import Bus
from shared.plugin_api.base_plugin import BasePlugin


class ColorPlugin(BasePlugin):
    """Fills the panel with one color; records which threads called it."""

    color = (255, 0, 0)

    def __init__(self, plugin_id: str, config: dict[str, Any], display_manager: Any) -> None:
        super().__init__(plugin_id, config, display_manager, None, None)
        self.displays = 0
        self.updates = 0
        self.display_threads: set[int] = set()
        self.update_threads: set[int] = set()
        self.modes_seen: list[str] = []

    def update(self) -> None:
        self.update_threads.add(threading.get_ident())
        self.updates += 1

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.display_threads.add(threading.get_ident())
        self.displays += 1
        self.modes_seen.append(display_mode or "")
        self.display_manager.image.paste(self.color, (0, 0, *self.display_manager.image.size))
        self.display_manager.update_display()
        return True


class RaisingPlugin(ColorPlugin):
    """Raises in display()."""

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.displays += 1
        raise ValueError("boom\nsecond line")


class EmptyPlugin(ColorPlugin):
    """Never has content."""

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.displays += 1
        return False


class FastPlugin(ColorPlugin):
    """Asks for the full frame rate and draws the same frame every time."""

    needs_high_fps = True


class BlockingUpdatePlugin(ColorPlugin):
    """update() blocks until ``release`` is set."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.release = threading.Event()

    def update(self) -> None:
        super().update()
        self.release.wait(10)


class FakeHost:
    """The ``PluginManager`` surface the render loop uses, over given instances."""

    def __init__(self, plugins: dict[str, Any], modes: dict[str, list[str]] | None = None):
        self.instances: dict[str, Any] = dict(plugins)
        self.load_errors: dict[str, str] = {}
        self.load_warnings: dict[str, list[str]] = {}
        self._modes = modes or {}
        self.applied: list[dict[str, Any]] = []
        self.unloaded = False
        self.manifests: dict[str, dict[str, Any]] = {}
        self.deferred: set[str] = set()
        self.loading: list[str] = []

    def modes(self, plugin_id: str) -> list[str]:
        return self._modes.get(plugin_id, [plugin_id])

    def load_next(self, count: int = 1) -> list[str]:
        del self.loading[:count]
        return []

    def load_now(self, plugin_id: str) -> list[str]:
        self.loading.remove(plugin_id)
        return []

    def get_manifest(self, plugin_id: str) -> dict[str, Any] | None:
        return self.manifests.get(plugin_id)

    def apply_config(self, config: dict[str, Any], busy: Any = None) -> list[str]:
        self.applied.append(config)
        return []

    def apply_deferred(self, busy: Any = None) -> list[str]:
        return []

    def unload_all(self, busy: Any = None) -> None:
        self.unloaded = True
        self.instances.clear()


def make_display(width: int = 16, height: int = 8) -> DisplayManager:
    """Return a display manager over a fresh headless matrix."""
    return DisplayManager(HeadlessMatrix(width, height))


@contextmanager
def running_loop(
    tmp_path: Path,
    display: DisplayManager,
    host: Any,
    config: dict[str, Any] | None = None,
    *,
    watch: bool = True,
    load_config: Callable[[], dict[str, Any]] | None = None,
    update_budget: float = 30.0,
    wall: Callable[[], float] = time.time,
    full_screen: Any = None,
) -> Iterator[tuple[RenderLoop, Bus]]:
    """Run a render loop on its own thread over a bus in ``tmp_path``; stop it after.

    ``wall`` is the loop's wall clock (the one schedules are read against);
    ``full_screen`` an optional mode that replaces the rotation.
    """
    bus = Bus(tmp_path / "bus")
    config = config if config is not None else {}
    loop = RenderLoop(
        display=display, plugins=host, bus=bus, config=config,
        load_config=load_config or (lambda: config), update_budget=update_budget, wall=wall,
        full_screen=full_screen,
    )
    watcher = bus.watch(
        ["display_on_demand_request", "config_changed", "preview_viewer"], loop.notify
    ) if watch else None
    thread = threading.Thread(target=loop.run, name="render-test", daemon=True)
    thread.start()
    try:
        yield loop, bus
    finally:
        loop.stop()
        thread.join(10)
        if watcher is not None:
            watcher.stop()
        assert not thread.is_alive(), "render loop did not stop"


def wait_until(predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(0.01)


def state(bus: Bus) -> dict[str, Any]:
    """Return the published ``display_state`` (empty before the first one)."""
    return bus.read("display_state") or {}
