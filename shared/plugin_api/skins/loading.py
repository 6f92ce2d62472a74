"""Importing a skin's ``skin.py`` and making its skin object (``load_skin``).

Runs skin code, so only the display (inside the plugin that chose the skin) and
``ledpanel skin check`` (in a process of its own) call it; the web reads manifests only.
Every failure is a ``SkinLoadError`` naming the skin and what went wrong.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from shared.paths import ROOT
from shared.plugin_api.boundary import CONTAINED
from shared.plugin_api.skins.api import ScoreboardSkin
from shared.plugin_api.skins.manifest import ENTRY_FILE, SkinInfo, discover_skins, skins_dirs

MODULE_PREFIX = "ledpanel_skin_"


class SkinLoadError(Exception):
    """A skin that cannot be used: not installed, a bad manifest, or code that fails."""


def _import_entry(info: SkinInfo) -> ModuleType:
    from shared.plugin_api import compat  # skins import the src.skin_system names

    compat.install()
    module_name = module_name_of(info.name)
    spec = importlib.util.spec_from_file_location(module_name, info.folder / ENTRY_FILE)
    if spec is None or spec.loader is None:
        raise SkinLoadError(f"skin {info.name!r}: {ENTRY_FILE} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # before it runs: dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    except CONTAINED as err:  # SystemExit included: a skin never ends the display
        sys.modules.pop(module_name, None)
        raise SkinLoadError(f"skin {info.name!r}: {ENTRY_FILE} failed to import: "
                            f"{type(err).__name__}: {err}") from err
    return module


def module_name_of(name: str) -> str:
    """The module a skin's code is imported as: one per skin name (``a-b`` and ``a_b``
    differ: a ``-`` is written ``_2d_``)."""
    return MODULE_PREFIX + name.replace("_", "__").replace("-", "_2d_")


def load_info(info: SkinInfo, options: Mapping[str, Any] | None = None) -> ScoreboardSkin:
    """The skin object of a discovered skin, or SkinLoadError."""
    if info.problems:
        raise SkinLoadError(f"skin {info.name!r}: {'; '.join(info.problems)}")
    module = _import_entry(info)
    skin_class = getattr(module, info.class_name, None)
    if not isinstance(skin_class, type) or not issubclass(skin_class, ScoreboardSkin):
        raise SkinLoadError(f"skin {info.name!r}: {info.class_name} in {ENTRY_FILE} is not "
                            "a ScoreboardSkin class")
    try:
        return skin_class(info.as_dict(), dict(options or {}))
    except CONTAINED as err:
        raise SkinLoadError(f"skin {info.name!r} failed to start: "
                            f"{type(err).__name__}: {err}") from err


def load_skin(name: str, options: Mapping[str, Any] | None = None,
              dirs: Iterable[Path] | None = None) -> ScoreboardSkin:
    """The installed skin ``name`` made with ``options``, or SkinLoadError."""
    found = discover_skins(skins_dirs(ROOT) if dirs is None else dirs)
    info = found.get(name)
    if info is None:
        raise SkinLoadError(f"skin {name!r} is not installed")
    return load_info(info, options)
