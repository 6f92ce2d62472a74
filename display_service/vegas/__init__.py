"""Vegas mode: one continuous ticker across the enabled plugins (``vegas_scroll.*``).

Wiring it into the render loop (all calls on the render thread). The shortest way is
``VegasMode``, which has the ``display_service.full_screen.FullScreenMode`` surface::

    vegas = VegasMode(display, lambda: plugins.instances, config,
                      on_error=errors.record, clock=clock)  # (plugin_id, "vegas", error)
    vegas.configure(new_config)        # on every config (re)load
    if vegas.active():                 # vegas_scroll.enabled
        due = vegas.render(now, force)  # presents through display.update_display()

Or drive the ticker directly::

    def content() -> list[Segment]:
        return collect_segments(
            plugins.instances, config, display.width, display.height,
            surface_factory=lambda w, h: CaptureSurface(w, h, fonts=display),
            on_error=errors.record)

    ticker = VegasTicker(config, display.width, display.height, content, clock)
    image = ticker.frame(now)                # the same object as last time if unchanged
    frame_due = ticker.next_frame_due(now)   # sleep until then (or until woken)
    ticker.resume(now)                       # back after on-demand/live: no skipped content
    ticker.reconfigure(new_config)           # speed etc. from now on, no jump
    ticker.reset()                           # start over with fresh content

API:

- ``collect_segments(plugins, config, width, height, *, surface_factory=None,
  fonts=None, on_error=None, panel_width=None) -> list[Segment]``: one cycle's
  content, in ticker order (see ``content``). Calls plugin hooks and ``display()``:
  render thread only. A plugin that raises is reported through ``on_error`` and left
  out of this cycle.
- ``VegasTicker(config, width, height, content_source, clock=time.monotonic, *,
  font=None)``: ``content_source()`` is called when a cycle ends (and at the start);
  ``font`` draws ``vegas_scroll.separator`` (the caller resolves ``font_family``;
  Pillow's default font at 10 px otherwise).
  - ``frame(now=None) -> Image``: the panel image; identical object when no pixel
    moved, so an identity check (or the display manager's digest) skips the push.
    Treat it as read-only (copy before drawing an overlay on it).
  - ``next_frame_due(now=None) -> float``: when the next whole pixel is reached (or a
    static hold ends); frames asked for earlier return the same image.
  - ``reconfigure(config, now=None)``, ``reset(now=None)``; ``resume(now=None)``: go
    on from the last frame drawn after a pause (else the position follows the clock
    and what would have scrolled by meanwhile is skipped).
  - ``interrupt(segments, now=None)``: the live-priority hook (see below).
  - ``cycles_started``, ``segments_held``, ``pixels_held``: figures for tests.
- ``VegasMode(display, plugins, config, *, on_error=None, clock=time.monotonic,
  font=None)``: ``configure(config)``, ``active()``, ``render(now, force) -> due``;
  ``force`` resumes the ticker and pushes even an unchanged frame.
- ``CaptureSurface(width, height, fonts=None)``: the stand-in display manager used to
  capture ``display()``; ``capture_display(plugin, width, height, factory)``.
- ``Segment(image, plugin_id, mode)``; ``read_settings(config) -> VegasSettings``.

Pacing (``pacing``): by elapsed time, ``position = scroll_speed * elapsed`` px; with
``frame_based_scrolling``, ``step = clamp(scroll_speed * scroll_delay, 0.1, 5)`` px per
whole ``scroll_delay`` elapsed. Drawn at ``floor(position)``. Both follow the clock,
not the number of ``frame()`` calls. The ticker starts with the panel blank and the
content entering from the right.

Memory: the strip is never one image. The ticker holds the current cycle's content
list (at most 64 images per plugin, each at most 4096 px wide), the segments on the
panel plus ``buffer_ahead`` queued beyond it, one separator and the last frame;
segments are dropped once scrolled past. No cache grows with time.

Live priority: ``vegas_scroll.live_priority`` / ``live_interrupt`` are parsed into the
settings but not acted on here. The caller that polls plugins for live content
(``has_live_content()``, every ``live_poll_interval`` s) calls
``ticker.interrupt(segments)``: the segments come right after what is on the panel,
then the ticker resumes where it left off.
"""

from __future__ import annotations

from display_service.vegas.capture import CaptureSurface, capture_display
from display_service.vegas.content import collect_segments
from display_service.vegas.mode import VegasMode
from display_service.vegas.settings import VegasSettings, read_settings
from display_service.vegas.strip import Segment
from display_service.vegas.ticker import VegasTicker

__all__ = [
    "CaptureSurface",
    "Segment",
    "VegasSettings",
    "VegasMode",
    "VegasTicker",
    "capture_display",
    "collect_segments",
    "read_settings",
]
