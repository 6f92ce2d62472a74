"""The services views call, kept in ``app.extensions`` and reached by ``services()``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from flask import current_app

from shared.bus.config_signal import announce_config_change
from shared.bus.core import Bus
from shared.config.store import ConfigStore, MainSnapshot
from shared.errors import LedpanelError
from shared.sign_in.settings import check_switch_on
from shared.sign_in.store import CredentialStore
from web_service.display_link import DisplayLink
from web_service.plugin_catalog import PluginCatalog
from web_service.settings import WebSettings
from web_service.system_status import StatusBlocks

logger = logging.getLogger(__name__)

EXTENSION_KEY = "ledpanel"

SavePlan = Callable[[dict[str, Any], dict[str, Any]],
                    tuple[dict[str, Any], dict[str, Any], list[str]]]


class Saved(NamedTuple):
    """What a config save did: the changed sections (sorted), config.json as written and,
    when the display could not be told on the bus, why (it reads the file anyway)."""

    changed: list[str]
    main: dict[str, Any]
    signal_problem: str | None = None


@dataclass
class WebServices:
    """One web app's services."""

    settings: WebSettings
    store: ConfigStore
    bus: Bus
    catalog: PluginCatalog
    display: DisplayLink
    status: StatusBlocks
    started_at: float = field(default_factory=time.time)
    # Where the server really listens ({host, port}), set once it has bound.
    listening: dict[str, Any] | None = None
    # GET /config/main's rendered body, for the config snapshot it was rendered from.
    _main_body: tuple[MainSnapshot, bytes] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, settings: WebSettings) -> WebServices:
        """Wire the services for ``settings``."""
        store = ConfigStore(settings.paths)
        bus = Bus(settings.paths.cache_dir)
        display = DisplayLink(bus, settings)
        return cls(
            settings=settings,
            store=store,
            bus=bus,
            catalog=PluginCatalog(settings.paths, store),
            display=display,
            status=StatusBlocks(display, store),
        )

    def save_config(self, plan: SavePlan, *, replace_unreadable: bool = False,
                    pure: bool = False, switch_on: Callable[[], None] | None = None) -> Saved:
        """Apply ``plan`` to the stored config under the lock, then tell the display.

        ``plan(main, secrets)`` returns ``(new_main, new_secrets, changed_sections)`` or
        raises; nothing is written when it raises. A bus the save cannot be announced on
        does not fail it (``Saved.signal_problem``). Returns the changed sections and the
        main config as written (the caller owns it: no need to read the file again).
        ``replace_unreadable`` and ``pure`` (the plan changes neither argument): see
        ``ConfigStore.update``. ``switch_on``: run under the lock when the save switches
        sign-in on (``shared.sign_in.settings.check_switch_on``).
        """
        changed: list[str] = []

        def change(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
            new_main, new_secrets, sections = plan(main, secrets)
            check_switch_on(main, new_main, CredentialStore(self.settings.paths).password_set,
                            switch_on)
            changed.extend(sections)
            return new_main, new_secrets

        main, _ = self.store.update(change, replace_unreadable=replace_unreadable, pure=pure)
        problem = None
        if changed:
            # The save stands either way: the display watches config.json itself, so a
            # bus it cannot be told on delays nothing. Say so instead of failing.
            try:
                self.notify_config_changed(changed)
            except LedpanelError as err:
                problem = err.message
                logger.warning("config saved, but the display was not signalled: %s", problem)
        return Saved(sorted(changed), main, problem)

    def main_body(self, render: Callable[[dict[str, Any]], bytes]) -> bytes:
        """Return ``render(config.json)``, rendered once per change of the file.

        The config is checked (one ``stat``) on every call, so the body is never stale.
        """
        snapshot = self.store.main_snapshot()
        cached = self._main_body
        if cached is not None and cached[0] is snapshot:
            return cached[1]
        body = render(snapshot.data)
        self._main_body = (snapshot, body)  # one assignment: threads see old or new
        return body

    def notify_config_changed(self, sections: list[str]) -> dict[str, Any]:
        """Tell the display daemon that the config was saved."""
        return announce_config_change(self.bus, sections)


def services() -> WebServices:
    """Return the services of the current app."""
    return cast(WebServices, current_app.extensions[EXTENSION_KEY])
