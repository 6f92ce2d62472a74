"""Skin manifests (``skin.json``) and discovery, without importing any skin code.

A skin is a folder ``<skins dir>/<name>/`` holding ``skin.json``, ``skin.py`` and
``preview.png``. Every file is untrusted: a manifest that cannot be read or checked is
kept as a problem beside its folder name, never raised.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.files.jsontext import parse_bounded
from shared.files.regular_file import read_regular

SKIN_API_VERSION = "1.0.0"
VIEW_MODEL_VERSION = "1.0"
MODES = ("live", "recent", "upcoming")
MANIFEST_FILE = "skin.json"
ENTRY_FILE = "skin.py"
PREVIEW_FILE = "preview.png"
MAX_MANIFEST_BYTES = 64 * 1024
SKINS_DIR_ENV = "LEDPANEL_SKINS_DIR"
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")
_TEXT_LIMIT = 200
MAX_SKINS = 200  # skin folders read per directory: a folder of thousands costs no more


@dataclass(frozen=True)
class SkinInfo:
    """One skin folder as read from disk: its manifest's data, or its problems."""

    name: str
    folder: Path
    display_name: str = ""
    version: str = ""
    api_version: str = ""
    class_name: str = ""
    description: str = ""
    modes: tuple[str, ...] = ()
    plugins: tuple[str, ...] = ()
    sports: tuple[str, ...] = ()
    has_preview: bool = False
    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.problems

    def supports_plugin(self, plugin_id: str) -> bool:
        """Whether the skin names the plugin, or one of its sports is a word of the id;
        a skin naming neither fits every scoreboard."""
        if not self.plugins and not self.sports:
            return True
        words = set(plugin_id.lower().replace("_", "-").split("-"))
        return plugin_id in self.plugins or any(s in words for s in self.sports)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "display_name": self.display_name or self.name,
            "version": self.version, "skin_api_version": self.api_version,
            "description": self.description, "modes": list(self.modes),
            "plugins": list(self.plugins), "sports": list(self.sports),
            "has_preview": self.has_preview, "ok": self.ok, "problems": list(self.problems),
        }


def skins_dirs(root: Path, env: Mapping[str, str] | None = None) -> list[Path]:
    """The folders skins are found in: ``$LEDPANEL_SKINS_DIR`` (a developer's skins)
    first, then ``<install>/skins``; a name found in both is the first one's."""
    env = os.environ if env is None else env
    extra = env.get(SKINS_DIR_ENV)
    dirs = [Path(extra).expanduser()] if extra else []
    return [*dirs, root / "skins"]


def api_major(version: str) -> int | None:
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else None


def _text(data: Mapping[str, Any], key: str, problems: list[str], required: bool) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > _TEXT_LIMIT:
        problems.append(f"{key!r} must be a non-empty text of at most {_TEXT_LIMIT} characters")
        return ""
    return value


def _names(data: Mapping[str, Any], key: str, problems: list[str]) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        problems.append(f"{key!r} must be a list of names")
        return ()
    return tuple(dict.fromkeys(v[:_TEXT_LIMIT] for v in value[:50]))


def _check(data: Mapping[str, Any], folder: Path, problems: list[str]) -> SkinInfo:
    """Every field of a parsed manifest checked; what fails is named in ``problems``."""
    api = _text(data, "skin_api_version", problems, True)
    if api and api_major(api) != api_major(SKIN_API_VERSION):
        problems.append(f"skin API {api} does not match ledpanel's {SKIN_API_VERSION}")
    class_name = _text(data, "class_name", problems, True)
    if class_name and not _CLASS.match(class_name):
        problems.append("'class_name' must be a Python class name")
    modes = _names(data, "modes", problems)
    if not modes or not set(modes) <= set(MODES):
        problems.append(f"'modes' must list some of {', '.join(MODES)}")
    targets = data.get("targets", {})
    if not isinstance(targets, dict):
        problems.append("'targets' must be an object")
        targets = {}
    if not (folder / ENTRY_FILE).is_file():
        problems.append(f"{ENTRY_FILE} is missing")
    return SkinInfo(
        name=folder.name, folder=folder, display_name=_text(data, "name", problems, True),
        version=_text(data, "version", problems, True), api_version=api,
        class_name=class_name, description=_text(data, "description", problems, False),
        modes=tuple(m for m in modes if m in MODES), plugins=_names(targets, "plugins", problems),
        sports=_names(targets, "sports", problems),
        has_preview=(folder / PREVIEW_FILE).is_file(), problems=tuple(problems))


def read_skin(folder: Path) -> SkinInfo:
    """One skin folder read and checked; never raises for what the folder holds."""
    try:
        raw = read_regular(folder / MANIFEST_FILE, MAX_MANIFEST_BYTES)
        data = parse_bounded(raw.decode("utf-8"))
    except (OSError, ValueError) as err:
        return SkinInfo(name=folder.name, folder=folder,
                        problems=(f"{MANIFEST_FILE} cannot be read: {err}",))
    if not isinstance(data, dict):
        return SkinInfo(name=folder.name, folder=folder,
                        problems=(f"{MANIFEST_FILE} must hold a JSON object",))
    problems: list[str] = []
    if data.get("id", folder.name) != folder.name:
        problems.append(f"'id' {str(data.get('id'))[:40]!r} is not the folder's name")
    return _check(data, folder, problems)


def discover_skins(dirs: Iterable[Path]) -> dict[str, SkinInfo]:
    """Every skin folder in ``dirs`` by name, broken ones included (with problems); the
    first ``MAX_SKINS`` in name order of each directory."""
    found: dict[str, SkinInfo] = {}
    for base in dirs:
        try:
            entries = sorted(base.iterdir())
        except OSError:
            continue
        taken = 0
        for entry in entries:
            if entry.name in found or not NAME.match(entry.name) or not entry.is_dir():
                continue
            if taken == MAX_SKINS:
                break
            taken += 1
            found[entry.name] = read_skin(entry)
    return found
