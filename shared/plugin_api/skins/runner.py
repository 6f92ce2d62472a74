"""The rules a plugin's skin lives by (``SkinRunner``).

- The plugin's core-owned keys ``skin`` and ``skin_options`` choose the skin.
- Per mode, the skin draws when it has a renderer for it and returns True; otherwise
  (no renderer, False, an exception, a disabled skin) the plugin draws its own look.
- Three faults in a row disable the skin for the session, logged once. A fault is a
  raise (``SystemExit`` included) or a render over ``SLOW_RENDER`` seconds, so a skin too
  slow for the panel gives way to the built-in look before the display judges the
  plugin's own call slow (at 0.5 s). A skin that cannot load is disabled at once.
- A render over ``RENDER_BUDGET`` seconds logs a warning (at most once a minute).
- A skin runs inside the plugin's own call, so a hung skin is a hung plugin: the
  display's hang watch and breaker contain it as they contain the plugin.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from shared.plugin_api.boundary import CONTAINED
from shared.plugin_api.skins.api import ScoreboardSkin, SkinContext
from shared.plugin_api.skins.loading import load_skin
from shared.plugin_api.skins.manifest import MODES

RENDER_BUDGET = 0.150
SLOW_RENDER = 0.300  # a fault, like a raise
FAULTS_TO_DISABLE = 3  # faults in a row
WARN_EVERY = 60.0


def _has_renderer(skin: ScoreboardSkin, mode: str) -> bool:
    method = f"render_{mode}"
    declared = skin.manifest.get("modes")
    if isinstance(declared, list) and mode not in declared:
        return False
    return getattr(type(skin), method, None) is not getattr(ScoreboardSkin, method)


class SkinRunner:
    """One plugin's chosen skin, loaded on first use and held to the rules above."""

    def __init__(self, plugin_id: str, name: str | None, options: Mapping[str, Any] | None = None,
                 logger: logging.Logger | None = None,
                 loader: Callable[..., ScoreboardSkin] = load_skin,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.plugin_id = plugin_id
        self.name = name if isinstance(name, str) and name else None
        self.options = dict(options) if isinstance(options, Mapping) else {}
        self.logger = logger or logging.getLogger(f"ledpanel.skins.{plugin_id}")
        self._loader = loader
        self._clock = clock
        self._skin: ScoreboardSkin | None = None
        self.disabled_reason: str | None = None
        self.faults_in_a_row = 0
        self._last_warning = -WARN_EVERY

    @classmethod
    def from_config(cls, plugin_id: str, config: Mapping[str, Any],
                    logger: logging.Logger | None = None, **kwargs: Any) -> SkinRunner:
        """The runner for a plugin's config: its ``skin`` and ``skin_options`` keys."""
        return cls(plugin_id, config.get("skin"), config.get("skin_options"), logger, **kwargs)

    @property
    def active(self) -> bool:
        """Whether a skin is chosen and not disabled."""
        return self.name is not None and self.disabled_reason is None

    def _disable(self, reason: str) -> None:
        self.disabled_reason = reason
        self.logger.error("skin %r of plugin %s disabled for this session: %s",
                          self.name, self.plugin_id, reason)

    def _loaded(self) -> ScoreboardSkin | None:
        if self._skin is None and self.active:
            try:
                self._skin = self._loader(self.name, self.options)
            except CONTAINED as err:  # SkinLoadError, or whatever else the loading raised
                self._disable(str(err) or type(err).__name__)
        return self._skin if self.active else None

    def render(self, mode: str, ctx: SkinContext, game: Mapping[str, Any]) -> bool:
        """Have the skin draw ``mode``; True when it drew, False for the built-in look."""
        skin = self._loaded() if mode in MODES else None
        if skin is None:
            return False
        started = self._clock()
        try:  # a skin never takes its plugin down, even one that broke its own object
            if not _has_renderer(skin, mode):
                return False
            drawn = getattr(skin, f"render_{mode}")(ctx, game) is True
        except CONTAINED as err:
            self._fault(mode, f"raised {type(err).__name__}: {err}")
            return False
        elapsed = self._clock() - started
        if elapsed > SLOW_RENDER:
            self._fault(mode, f"took {elapsed * 1000:.0f} ms, over {SLOW_RENDER * 1000:.0f} ms")
            return drawn
        self.faults_in_a_row = 0
        self._check_budget(mode, elapsed)
        return drawn

    def _fault(self, mode: str, what: str) -> None:
        self.faults_in_a_row += 1
        self.logger.warning("skin %r %s in %s (%d in a row)", self.name, what, mode,
                            self.faults_in_a_row)
        if self.faults_in_a_row >= FAULTS_TO_DISABLE:
            self._disable(f"{FAULTS_TO_DISABLE} faults in a row, the last: {what}")

    def _check_budget(self, mode: str, elapsed: float) -> None:
        now = self._clock()
        if elapsed > RENDER_BUDGET and now - self._last_warning >= WARN_EVERY:
            self._last_warning = now
            self.logger.warning("skin %r took %.0f ms to render %s, over the %.0f ms "
                                "render budget", self.name, elapsed * 1000, mode,
                                RENDER_BUDGET * 1000)
