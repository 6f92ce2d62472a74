"""Vegas mode: one continuous ticker across the enabled plugins (``vegas_scroll.*``).

Wiring it into the render loop (all calls on the render thread). The shortest way is
``VegasMode``, which has the ``display_service.loop.full_screen.FullScreenMode`` surface::

    vegas = VegasMode(display, lambda: plugins.instances, config,
                      on_error=errors.record,  # (plugin_id, "vegas", error)
                      skip=updates.is_overrun, clock=clock)
    vegas.configure(new_config)        # on every config (re)load
    if vegas.active():                 # vegas_scroll.enabled
        due = vegas.render(now, force)  # presents through display.update_display()
    vegas.allows_live_interrupt()      # may live content take the panel now?
    vegas.status(now)                  # plugin_id, mode "vegas", fps for display_state

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
  fonts=None, on_error=None, panel_width=None, skip=None, budget=None, on_slow=None,
  clock=time.monotonic) -> list[Segment]``: one cycle's content, in ticker order (see
  ``content``). Calls plugin hooks and ``display()``: render thread only. A plugin that
  raises is reported through ``on_error`` and left out of this cycle; ``skip(id)``
  leaves a plugin out before it is called; one over ``budget`` seconds goes to
  ``on_slow(id, seconds)`` (else ``on_error``, a ``SlowContentError``).
- ``VegasTicker(config, width, height, content_source, clock=time.monotonic, *,
  font=None)``: ``content_source()`` is called when a cycle ends (and at the start);
  ``font`` draws ``vegas_scroll.separator`` (the caller resolves ``font_family``;
  Pillow's default font at 10 px otherwise).
  - ``frame(now=None) -> Image``: the panel image; identical object when no pixel
    moved, so an identity check (or the display manager's digest) skips the push.
    Treat it as read-only (copy before drawing an overlay on it).
  - ``next_frame_due(now=None) -> float``: when the next whole pixel is reached (or a
    static hold ends); frames asked for earlier return the same image. While only
    blank gap is on the panel and nothing is queued (no content), the end of the gap
    instead: the source is asked again then (``EMPTY_RETRY`` s), not every pixel.
  - ``reconfigure(config, now=None)``, ``reset(now=None)``; ``resume(now=None)``: go
    on from the last frame drawn after a pause (else the position follows the clock
    and what would have scrolled by meanwhile is skipped).
  - ``plugin_shown()``: the plugin covering most of the last frame (None over a
    separator or gap).
  - ``cycles_started``, ``segments_held``, ``pixels_held``: figures for tests.
- ``VegasMode(display, plugins, config, *, on_error=None, clock=time.monotonic,
  font=None, skip=None, capture_budget=0.5, slow_skip_cycles=5)``:
  ``configure(config)``, ``active()``, ``render(now, force) -> due``; ``force`` resumes
  the ticker and pushes even an unchanged frame. ``allows_live_interrupt()``,
  ``status(now)``. Plugins ``skip`` names are left out of each collection; a plugin
  whose content takes over ``capture_budget`` seconds is reported through
  ``on_error`` and left out of the next ``slow_skip_cycles`` collections.
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

Live priority: live content (a plugin with ``live_priority: true`` in its own section
whose ``has_live_content()`` is True, polled by the core: ``display_service.plugins.live``)
takes the whole panel through the render loop's live layer, above the full-screen mode;
the ticker is paused meanwhile and resumes where it left off. ``VegasMode.
allows_live_interrupt()`` says whether it may, and the loop asks it while live content
waits: with ``vegas_scroll.live_priority`` false never (the live plugin shows in its
turn in the ticker, with the rest); with ``live_interrupt`` false only at the next cycle
boundary (when the next content cycle comes on screen; at most
``vegas_max_cycle_duration`` s); with both true (the default) at once.
``live_poll_interval``, ``live_hold_duration``, ``live_resume_position`` and
``content_refresh_interval`` are reserved: not read (the core polls every 5 s and after
each ``update()``, live modes show for their rotation durations, the ticker always
resumes where it left off, and content is collected afresh at each cycle).
"""

from __future__ import annotations

from display_service.vegas.capture import CaptureSurface, capture_display
from display_service.vegas.content import SlowContentError, collect_segments
from display_service.vegas.mode import VegasMode
from display_service.vegas.settings import VegasSettings, read_settings
from display_service.vegas.strip import Segment
from display_service.vegas.ticker import VegasTicker

__all__ = [
    "CaptureSurface",
    "Segment",
    "SlowContentError",
    "VegasSettings",
    "VegasMode",
    "VegasTicker",
    "capture_display",
    "collect_segments",
    "read_settings",
]
