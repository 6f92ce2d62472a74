"""Where a plugin's own dependencies live, and putting them on the path of the display.

The store installs a plugin's requirements into ``<plugin folder>/.ledpanel-deps/``
(``pip install --target``), never into the environment the daemons share: nothing a
plugin brings is importable in the web daemon or runs when an interpreter starts, and
the folder goes with the plugin (replaced by an update, deleted by an uninstall).

The display adds that folder to ``sys.path`` when it loads the plugin, at the END: the
core's own packages (site-packages) always win over a plugin's copy, so a plugin never
changes what the core runs on. The folder is only appended, never given to
``site.addsitedir``, so a ``.pth`` file in it is never read (the store refuses such
packages anyway).
"""

from __future__ import annotations

import sys
from pathlib import Path

DEPS_FOLDER = ".ledpanel-deps"


def deps_dir(plugin_dir: Path) -> Path:
    """Return the folder holding a plugin's installed requirements."""
    return Path(plugin_dir) / DEPS_FOLDER


def add_to_path(plugin_dir: Path) -> Path | None:
    """Append the plugin's dependency folder to ``sys.path`` (once); return it, or None
    when the plugin has none (or it is not a real folder)."""
    folder = deps_dir(plugin_dir)
    if folder.is_symlink() or not folder.is_dir():
        return None
    entry = str(folder)
    if entry not in sys.path:
        sys.path.append(entry)
    return folder
