"""App ids: the name an installed app goes by (its folder, its display mode, its config key).

An id is 1 to 64 characters of lower-case letters, digits, ``_`` and ``-``, starting
with a letter or digit: the apps repository's folder names all are. The display mode
of an app is its id prefixed with ``MODE_PREFIX``, so an app never shares a name with a
plugin in ``display_durations``; ``apps`` is not an id, since its mode would be the
plugin's own fallback mode (``starlark-apps``).
"""

from __future__ import annotations

import re

APP_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
MODE_PREFIX = "starlark-"
RESERVED = frozenset({"apps"})


def valid_app_id(value: object) -> bool:
    """Whether ``value`` is a usable app id."""
    return (isinstance(value, str) and APP_ID.fullmatch(value) is not None
            and value not in RESERVED)


def app_id_from(name: str) -> str:
    """Make an id from a file or folder name: lower-case, other characters as ``_``."""
    stem = name.rsplit("/", 1)[-1]
    stem = stem[:-5] if stem.lower().endswith(".star") else stem
    stem = stem[:-4] if stem.lower().endswith(".zip") else stem
    made = re.sub(r"[^a-z0-9_-]+", "_", stem.lower()).strip("_-")[:64]
    return made if valid_app_id(made) else ""


def mode_of(app_id: str) -> str:
    """The display mode showing an app."""
    return MODE_PREFIX + app_id


def app_of(mode: str) -> str | None:
    """The app a display mode shows, or None when the mode is not an app's."""
    app_id = mode[len(MODE_PREFIX):] if mode.startswith(MODE_PREFIX) else ""
    return app_id if valid_app_id(app_id) else None
