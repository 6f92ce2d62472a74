"""Where the display's config comes from: config.json itself, followed as it changes.

The file is the truth. The web announces its saves on the bus (``config_changed``) for
an immediate reload, but a hand edit over SSH is noticed too: the config directory is
watched, and a change of ``config.json`` or ``config_secrets.json`` is read after
``DEBOUNCE`` seconds of quiet (an editor writes in several steps). Both paths read the
files only when their bytes differ from the ones the running config came from
(``unchanged``), so the web's save and the file event it causes reload once.

A change is applied only if it keeps the rules every save keeps
(``shared.config.check.config_problems`` against the running config). A file that does
not parse, or an edit that breaks a rule, leaves the panel on the running config and is
reported (``read`` returns the problem, the loop publishes it as ``config_problem``).
An edit of one brightness key sets the other too (``settle_brightness``), and the file
is rewritten so every reader sees the one value the panel shows. The plugins directory
is kept as started (``keep_plugins_directory``).

The watch starts before the first read, so a save at any moment of start-up is either
in the config read at start or announced to the loop afterwards, never lost.
"""

from __future__ import annotations

import copy
import hashlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from shared.bus.core import BusWatcher, watch_directory
from shared.config.brightness import brightness_keys, settle_brightness
from shared.config.store import ConfigStore
from shared.errors import LedpanelError
from shared.files.jsonfile import READ_LIMIT
from shared.files.regular_file import read_regular

logger = logging.getLogger(__name__)

CONFIG_FILE = "config_file"  # the loop's key for "a config file changed on disk"
DEBOUNCE = 0.3
Config = dict[str, Any]


class ConfigReader(Protocol):
    """What the render loop asks when the config may have changed."""

    def unchanged(self) -> bool:
        """Return True when the files are the ones the running config was read from."""

    def read(self, running: Config) -> tuple[Config | None, str | None]:
        """Return the new config, or None and why it is not applied."""


class CallableReader:
    """A reader over a function that returns the config (tests; no file to follow)."""

    def __init__(self, load: Callable[[], Config]) -> None:
        self.load = load

    def unchanged(self) -> bool:
        return False

    def read(self, running: Config) -> tuple[Config | None, str | None]:
        try:
            return self.load(), None
        except Exception as err:  # keep running on the last good config
            return None, str(getattr(err, "message", err))


def keep_plugins_directory(running: Config, config: Config) -> None:
    """Keep the plugins directory the display started with in a reloaded ``config``.

    Code is imported from there, so it changes only with a restart (the web reports
    ``restart_required`` for it, like the panel settings).
    """
    section = running.get("plugin_system")
    started = section.get("plugins_directory") if isinstance(section, dict) else None
    target = config.get("plugin_system")
    if not isinstance(target, dict):
        target = config["plugin_system"] = {}
    if started is None:
        target.pop("plugins_directory", None)
    else:
        target["plugins_directory"] = started


class ConfigSource:
    """config.json and its secrets, as the display daemon reads and follows them."""

    def __init__(self, store: ConfigStore) -> None:
        self.store = store
        self.paths = store.paths
        self._loaded: bytes | None = None
        self._checked: bytes | None = None  # what unchanged() just read, for read()
        self._template: Config | None = None

    def watch(self, callback: Callable[[str], None]) -> BusWatcher:
        """Call ``callback(CONFIG_FILE)`` whenever a config file changes on disk."""
        names = {p.name.removesuffix(".json") for p in (self.paths.config_file,
                                                         self.paths.secrets_file)}
        return watch_directory(self.paths.config_dir, names, lambda _name: callback(CONFIG_FILE))

    def fingerprint(self) -> bytes:
        """Return a digest of both files' bytes (a missing or unreadable file counts too)."""
        digest = hashlib.blake2b(digest_size=16)
        for path in (self.paths.config_file, self.paths.secrets_file):
            try:
                # Only a regular file, without blocking (a FIFO would block the render
                # thread), and only so much of it.
                digest.update(read_regular(path, READ_LIMIT))
            except OSError as err:
                digest.update(f"<{type(err).__name__} {err}>".encode())
            digest.update(b"\0")
        return digest.digest()

    def load_initial(self) -> tuple[Config, str | None, list[str]]:
        """Return the config to start on, why it is not config.json (if so), keys added.

        A config.json that cannot be read must not leave the panel dark (systemd would
        restart us into the same error until it gives up): the newest backup that
        parses is used, else the template, and the file is left alone.
        """
        try:
            added = self.store.ensure()
            self._loaded = self.fingerprint()
            return self.store.load(), None, added
        except LedpanelError as err:
            config, source = self._fallback()
            return config, f"{err.message}; running on {source} until config.json is fixed", []

    def unchanged(self) -> bool:
        self._checked = self.fingerprint()
        return self._loaded is not None and self._checked == self._loaded

    def read(self, running: Config) -> tuple[Config | None, str | None]:
        fingerprint, self._checked = self._checked or self.fingerprint(), None
        try:
            config = self.store.load()
        except LedpanelError as err:
            return None, f"{err.message}; the panel keeps the running config"
        problems = self._problems(config, running)
        if problems:
            shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more"
                                               if len(problems) > 5 else "")
            return None, (f"{self.paths.config_file.name} changed but was not applied: {shown}; "
                          "the panel keeps the running config")
        settle_brightness(running, config)
        keep_plugins_directory(running, config)
        self._loaded = fingerprint
        if self._write_back_brightness(running):
            self._loaded = self.fingerprint()  # our own write: nothing more to read
        return config, None

    def _problems(self, config: Config, running: Config) -> list[str]:
        from shared.config.check import config_problems, problem_lines
        from shared.config.template import load_template
        from shared.errors import ValidationError
        from shared.plugin_system.discovery import plugins_dir_for
        from shared.plugin_system.schema import schema_lookup

        installed, schema_for = schema_lookup(self.paths, plugins_dir_for(self.paths, running))
        if self._template is None:  # read-only here: one copy for the daemon's life
            self._template = load_template()
        errors = config_problems(config, stored=running, schema_for=schema_for,
                                 plugin_ids=installed, template=self._template)
        try:
            settle_brightness(running, copy.deepcopy(config))
        except ValidationError as err:
            errors.append(err)
        return problem_lines(errors)

    def _write_back_brightness(self, running: Config) -> bool:
        """Rewrite config.json when a hand edit changed one of the brightness keys only."""
        top, hardware = brightness_keys(self.store.main_snapshot().data)
        if top == hardware or not all(isinstance(v, int | float) for v in (top, hardware)):
            return False
        try:
            self.store.update(lambda main, secrets: (settle_brightness(running, main), secrets))
        except LedpanelError as err:
            logger.warning("config: could not write the brightness back: %s", err.message)
            return False
        logger.info("config: one brightness key was edited; both now say %s",
                    brightness_keys(self.store.main_snapshot().data)[0])
        return True

    def _fallback(self) -> tuple[Config, str]:
        from shared.config.backups import newest_usable_backup
        from shared.config.template import load_template

        found = newest_usable_backup(self.paths)
        if found is not None:
            return found[0], f"backup {found[1].name}"
        return load_template(), "the template defaults"
