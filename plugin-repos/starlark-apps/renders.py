"""AppRenders: the plugin's own thread rendering the shown apps, one at a time.

Renders never run on the render thread. The runtime (``shared.starlark.isolated`` and
the interpreter it imports, some 20 MB) is imported by this thread at its first render,
so a display without apps never loads it. The thread wakes when the plan changes (a
config change, a rescan) and when an app's next render is due; each render goes
through ``AppRenderer`` (a capped worker process), is fitted to the panel once
(``scaling.fit``) and kept for ``display()``. After each render the ``starlark_apps``
bus record is published (``publish``) and, on success, the frames as shown are written
as an animated WebP to the app's preview path. When nothing is due for ``IDLE_CLOSE``
seconds the worker is stopped (it holds some 50 MB); the next render starts a new one.
A failure of one app (an ``AppError``, or anything else its render raised) is that
app's: counted, kept, logged when it changes; the others render on.
"""

from __future__ import annotations

import ctypes
import io
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_bytes
from shared.starlark.installed.render_status import preview_path, previews_dir

from .app_state import AppPlan, AppState, Shown, retry_after
from .scaling import describe, fit

if TYPE_CHECKING:  # imported when the first app renders: the runtime is some 20 MB
    from shared.starlark.isolated import AppRenderer, RenderedFrames

logger = logging.getLogger("plugin.starlark-apps")

IDLE_CLOSE = 60.0  # stop the worker when nothing is due for this long
MAX_WAIT = 60.0  # look again at least this often (a clock change, a missed wake)
PREVIEW_MAX_FRAMES = 600
Publish = Callable[[dict[str, Any]], None]


class AppRenders:
    """The render thread and what it made (module docstring)."""

    def __init__(self, panel: Callable[[], tuple[int, int]], publish: Publish,
                 cache_dir: Path | None, runtime: str = "",
                 renderer: Callable[[], AppRenderer] | None = None) -> None:
        self._panel = panel
        self._publish = publish
        self._cache_dir = cache_dir
        self._runtime = runtime
        self._new_renderer = renderer or _new_renderer
        self._worker = _Worker(self._new_renderer)  # the running thread's
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._stop.set()
        self._thread: threading.Thread | None = None
        self._plans: dict[str, AppPlan] = {}
        self._states: dict[str, AppState] = {}
        self._installed: set[str] | None = None  # set: previews of others are to go
        self._interval = 300.0
        self._seconds = 3.0

    # -- the plugin's side ---------------------------------------------------

    def set_plan(self, plans: dict[str, AppPlan], interval: float, seconds: float,
                 installed: set[str]) -> None:
        """Render these apps from now on; wake the thread."""
        with self._lock:
            self._plans = dict(plans)
            self._interval, self._seconds = interval, seconds
            self._states = {k: v for k, v in self._states.items() if k in plans}
            self._installed = set(installed)
        self._wake.set()

    def shown(self, app_id: str) -> Shown | None:
        """The app's frames as the panel shows them; None while it has none."""
        state = self._states.get(app_id)
        return state.shown if state is not None else None

    def state(self, app_id: str) -> AppState | None:
        return self._states.get(app_id)

    def running(self) -> bool:
        """Whether the thread runs and has not been asked to stop."""
        return (self._thread is not None and self._thread.is_alive()
                and not self._stop.is_set())

    def worker_running(self) -> bool:
        """Whether the thread holds a render worker now."""
        return self._worker.renderer is not None

    def start(self) -> None:
        """Start the thread (again, after ``stop``: a thread still finishing its last
        render ends on its own, with its own worker)."""
        if self.running():
            return
        self._stop, self._worker = threading.Event(), _Worker(self._new_renderer)
        self._thread = threading.Thread(target=self._run, args=(self._stop, self._worker),
                                        name="starlark-apps-render", daemon=True)
        self._thread.start()

    def stop(self, wait: float = 1.0) -> None:
        """Stop the thread; it stops its worker as it ends (a render in flight first
        finishes or times out)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(wait)

    # -- the thread ----------------------------------------------------------

    def _run(self, stop: threading.Event, worker: _Worker) -> None:
        try:
            while not stop.is_set():
                self._tidy_previews()
                job = self._next_due(time.time())
                if job is not None:
                    self._render(worker, *job)
                    continue
                wait = self._until_next(time.time())
                if wait >= IDLE_CLOSE:
                    worker.close()
                self._wake.wait(min(wait, MAX_WAIT))
                self._wake.clear()
        except Exception:  # the thread must say why it ended; update() starts it again
            logger.exception("the app render thread stopped")
        finally:
            worker.close()

    def _next_due(self, now: float) -> tuple[AppPlan, tuple[Any, ...], float] | None:
        panel = self._panel()
        with self._lock:
            due = []
            for app_id, plan in sorted(self._plans.items()):
                key = plan.key(panel, self._seconds)
                state = self._states.get(app_id)
                if state is None or state.key != key:
                    return plan, key, self._seconds
                if now >= state.next_render_at:
                    due.append((state.next_render_at, app_id, plan, key))
            if not due:
                return None
            _, _, plan, key = min(due, key=lambda item: (item[0], item[1]))
            return plan, key, self._seconds

    def _until_next(self, now: float) -> float:
        with self._lock:
            times = [s.next_render_at for s in self._states.values()]
        return max(0.0, min(times) - now) if times else MAX_WAIT * 10

    def _render(self, worker: _Worker, plan: AppPlan, key: tuple[Any, ...],
                seconds: float) -> None:
        started = time.monotonic()
        frames, error = _attempt(worker.get(), plan, seconds)
        took = round((time.monotonic() - started) * 1000)
        images = fit(frames.images, plan.scale, self._panel()) if frames is not None else []
        shown = (Shown.of(images, frames.delay_ms, frames.show_full_animation)
                 if frames is not None and images else None)
        self._keep(plan, key, shown, error, took)
        if shown is not None:
            self._write_preview(plan.app_id, images, shown.delay_ms)
        del frames, images
        self._publish_record()
        release_memory()

    def _keep(self, plan: AppPlan, key: tuple[Any, ...], shown: Shown | None,
              error: str | None, took: int) -> None:
        now = time.time()
        with self._lock:
            if plan.app_id not in self._plans:
                return  # removed while it rendered
            before = self._states.get(plan.app_id)
            same = before is not None and before.key == key
            state = AppState(key=key, size=plan.size, render_ms=took,
                             scale=describe(plan.scale, plan.size, self._panel()))
            if error is None:
                state.shown, state.skipped = shown, shown is None
                state.frames = len(shown) if shown is not None else 0
                state.delay_ms = shown.delay_ms if shown is not None else 0
                state.rendered_at, state.next_render_at = round(now, 3), now + self._interval
            else:
                state.errors = (before.errors if same and before is not None else 0) + 1
                state.error = error
                state.rendered_at = before.rendered_at if same and before is not None else None
                wait, state.backoff_s = retry_after(state.errors, self._interval)
                state.next_render_at = now + wait
            self._states[plan.app_id] = state
        _log_change(plan.app_id, before.error if same and before is not None else None,
                    state)

    def _write_preview(self, app_id: str, images: list[Image.Image], delay_ms: int) -> None:
        """The frames as the panel shows them, as an animated lossless WebP, replaced in
        one rename and readable by the web's group (mode 664, as bus records are)."""
        if self._cache_dir is None:
            return
        try:
            atomic_write_bytes(preview_path(self._cache_dir, app_id),
                               webp_bytes(images[:PREVIEW_MAX_FRAMES], delay_ms), mode=0o664)
        except (AtomicWriteError, OSError, ValueError) as err:
            logger.warning("app %s: cannot write its preview: %s", app_id, err)

    def _tidy_previews(self) -> None:
        """Remove the previews of apps no longer installed (once per rescan)."""
        with self._lock:
            installed, self._installed = self._installed, None
        if installed is None or self._cache_dir is None:
            return
        try:
            previews = list(previews_dir(self._cache_dir).glob("*.webp"))
        except OSError:
            return
        for path in previews:
            if path.stem not in installed:
                path.unlink(missing_ok=True)

    def record(self) -> dict[str, Any]:
        """The ``starlark_apps`` bus record (shape: ``render_status``'s docstring)."""
        with self._lock:
            apps = {app_id: self._states[app_id].record() if app_id in self._states
                    else _unrendered() for app_id in sorted(self._plans)}
        return {"runtime": self._runtime, "updated_at": round(time.time(), 3), "apps": apps}

    def _publish_record(self) -> None:
        try:
            self._publish(self.record())
        except Exception as err:  # the record is a report: never stop rendering over it
            logger.warning("cannot publish the apps' render record: %s", err)


class _Worker:
    """One thread's render worker, started at its first render, stopped when idle."""

    def __init__(self, make: Callable[[], AppRenderer]) -> None:
        self._make = make
        self.renderer: AppRenderer | None = None

    def get(self) -> AppRenderer:
        if self.renderer is None:
            self.renderer = self._make()
        return self.renderer

    def close(self) -> None:
        renderer, self.renderer = self.renderer, None
        if renderer is not None:
            renderer.close()


def _new_renderer() -> AppRenderer:
    """A render worker, the runtime imported with it (on this thread, the first time)."""
    from shared.starlark.isolated import AppRenderer

    return AppRenderer()


def _attempt(renderer: AppRenderer, plan: AppPlan,
             seconds: float) -> tuple[RenderedFrames | None, str | None]:
    """The frames, or the one-line error; neither: the app skips its turn."""
    from shared.starlark.runtime import AppError, NothingToShow

    try:
        return renderer.render(str(plan.main_path), plan.config, width=plan.size[0],
                               height=plan.size[1], seconds=seconds), None
    except NothingToShow:  # main returned []: nothing to show now, not a failure
        return None, None
    except AppError as err:
        return None, str(err) or "the app failed"
    except Exception as err:  # isolation: one app's failure is that app's alone
        return None, f"{type(err).__name__}: {err}".splitlines()[0][:300]


def webp_bytes(images: list[Image.Image], delay_ms: int) -> bytes:
    """Frames as one looping animated WebP, each shown ``delay_ms``."""
    first, *rest = images
    buffer = io.BytesIO()
    first.save(buffer, format="WEBP", save_all=True, append_images=rest,
               duration=max(1, delay_ms), loop=0, lossless=True)
    return buffer.getvalue()


def release_memory() -> None:
    """Hand freed memory back to the system. A render's frames pass through buffers of
    several MB on this thread, whose malloc arena glibc does not shrink by itself; where
    the C library is not glibc this does nothing."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        return


def _unrendered() -> dict[str, Any]:
    return {"rendered_at": None, "render_ms": None, "frames": 0, "delay_ms": 0,
            "width": 64, "height": 32, "scale": "", "error": None, "errors": 0,
            "next_render_at": round(time.time(), 3), "held": False, "backoff_s": None,
            "skipped": False}


def _log_change(app_id: str, previous: str | None, state: AppState) -> None:
    """Say in the log what changed: a new error, or working again."""
    if state.error is not None and state.error != previous:
        held = (f" (failed {state.errors} times in a row: next try in {state.backoff_s:g} s)"
                if state.backoff_s is not None else "")
        logger.warning("app %s: %s%s", app_id, state.error, held)
    elif state.error is None and previous is not None:
        logger.info("app %s: renders again", app_id)
