"""i18n.star: ``tr(text)`` from the app's ``locales/<language>.json``, else the text itself."""

from __future__ import annotations

import json
from pathlib import Path

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = "tr = _py_tr\n"
MAX_LOCALE_BYTES = 256 * 1024


def translations(folder: Path, language: str) -> dict[str, str]:
    """The app's strings for ``language`` (empty when it has none or they are unreadable)."""
    path = folder / "locales" / f"{language}.json"
    try:
        if not path.resolve().is_relative_to(folder.resolve()) or \
                path.stat().st_size > MAX_LOCALE_BYTES:
            return {}
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {str(k): str(v) for k, v in loaded.items() if isinstance(v, str)}


def module(folder: Path, language: str = "en") -> ModuleSource:
    """i18n.star for the app in ``folder``."""
    table = translations(folder, language)

    def tr(text: str, *args: object) -> str:
        found = table.get(text, text)
        return found % tuple(args) if args else found

    return ModuleSource(TEXT, {"_py_tr": tr})
