"""What the display says of each installed app: the ``starlark_apps`` bus record and previews.

The ``starlark-apps`` plugin (in the display) publishes after every render::

    {"runtime": "<version>", "updated_at": <epoch s>,
     "apps": {"<app_id>": {"rendered_at": <epoch s> | null, "render_ms": <ms> | null,
                           "frames": <n>, "delay_ms": <ms>, "width": 64, "height": 32,
                           "scale": "<how it is fitted>", "error": "<one line>" | null,
                           "errors": <failures in a row>, "next_render_at": <epoch s>,
                           "held": <bool>, "backoff_s": <s> | null,
                           "skipped": <bool>}}}

``apps`` lists the apps the display shows (installed, enabled, readable), in id order;
one not rendered yet has ``rendered_at`` null and ``frames`` 0. ``width``/``height``
are the size the app was rendered at (128x64 under the ``2x`` setting), ``scale`` says
how its frames fill the panel (``magnify x2``, ``none``, ``2x``, ``2x, magnify x2``).
After a failure ``error`` is its one line and ``frames`` 0 (``rendered_at`` stays the
last success of the same install and settings); ``held`` is true once the app failed
three times in a row and its retries wait ``backoff_s`` seconds (doubling, at most an
hour or the render interval). ``skipped`` is true when the last render's ``main``
returned ``[]`` (the app skips its turn: no frames, no error, not shown until the next
render). ``render_ms`` is the last attempt's time.

It writes the app's last frames, as the panel shows them (panel size), to
``preview_path`` (an animated WebP), so the web can show them; previews of apps no
longer installed are removed. The web reads both as untrusted files.
"""

from __future__ import annotations

from pathlib import Path

from shared.starlark.installed.app_ids import valid_app_id
from shared.starlark.installed.folder import PLUGIN_ID

RUNTIME_NAME = "ledpanel-starlark"


def previews_dir(cache_dir: Path) -> Path:
    """Where the display keeps each app's last frames."""
    return cache_dir / PLUGIN_ID / "previews"


def preview_path(cache_dir: Path, app_id: str) -> Path:
    """One app's last frames (animated WebP)."""
    if not valid_app_id(app_id):
        raise ValueError(f"{app_id!r} is not an app id")
    return previews_dir(cache_dir) / f"{app_id}.webp"


def runtime_version() -> str:
    """The runtime's version: the core's, with the interpreter's."""
    from importlib.metadata import PackageNotFoundError, version

    from shared.version import CORE_VERSION

    try:
        interpreter = version("starlark-pyo3")
    except PackageNotFoundError:
        interpreter = "unknown"
    return f"{RUNTIME_NAME} {CORE_VERSION} (starlark-pyo3 {interpreter})"
