"""Save rule 4: hardware settings that break the display hardware rules are refused.

Every save path (JSON and form bodies of POST /config/main, the raw editor) checks the
whole new config against ``shared.hardware`` but reports a problem only when the save
changes one of the settings the rule reads (``Problem.involves``). So a brightness save
succeeds while a stored unknown mapping waits to be fixed, and the stored value is kept
as it is; a save that changes the mapping or parallel gets the combination refused.
"Changes" means the new value differs from the stored one: the Display form posts every
field, and re-sending the stored value is not a change.

In emulator mode (``display.emulator`` true in the new config) nothing is refused: the
problems come back as warnings and the save proceeds.

The panel settings and the plugins directory are read only when the display service
starts: a save that changes one (``restart_settings_changed``) tells the client to
restart it. The brightness is the exception: the running display applies it at once.
"""

from __future__ import annotations

from typing import Any

from shared.errors import ValidationError
from shared.hardware import board as board_info
from shared.hardware.board import BoardReader
from shared.hardware.rules import HARDWARE, ORIENTATION, RUNTIME, Problem, check_config

ERROR_CODE = "HARDWARE_SETTING_REFUSED"
CHECKED_SETTINGS = (HARDWARE, RUNTIME, ORIENTATION)
# Read once, when the display service starts (also every display.emulator* key). The
# plugins directory is where the display imports code from: never changed while it runs.
PLUGINS_DIRECTORY = "plugin_system.plugins_directory"
RESTART_SETTINGS = (HARDWARE, RUNTIME, "display.double_sided", ORIENTATION, PLUGINS_DIRECTORY)
# Under RESTART_SETTINGS but applied by the running display.
LIVE_SETTINGS = frozenset({f"{HARDWARE}.brightness"})
RESTART_MESSAGE = "Saved; restart the display service to apply the panel settings"


def emulator_mode(config: dict[str, Any]) -> bool:
    """Return whether the config selects the emulator (``display.emulator`` is true)."""
    display = config.get("display")
    return isinstance(display, dict) and display.get("emulator") is True


def changed_hardware_settings(stored: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """Return the dotted hardware, runtime and orientation settings whose value changed."""
    return _changed_leaves(stored, new, CHECKED_SETTINGS)


def restart_settings_changed(stored: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Return the changed settings the display service reads only at start, sorted.

    ``display.hardware.*`` (but the brightness), ``display.runtime.*``,
    ``display.double_sided``, ``orientation``, every ``display.emulator*`` key and
    ``plugin_system.plugins_directory``.
    """
    emulator = {f"display.{key}" for config in (stored, new)
                for key in _object(config.get("display")) if str(key).startswith("emulator")}
    changed = _changed_leaves(stored, new, (*RESTART_SETTINGS, *sorted(emulator)))
    return sorted(changed - LIVE_SETTINGS)


def panel_settings(config: dict[str, Any]) -> dict[str, Any]:
    """Return the part of ``config`` the display service reads only at start.

    The display publishes it in ``hardware_status.settings``; a save asks for a restart
    only when it differs from that (``restart_settings_changed``).
    """
    found: dict[str, Any] = {}
    display = _object(config.get("display"))
    emulator = sorted(f"display.{key}" for key in display if str(key).startswith("emulator"))
    for path in (*RESTART_SETTINGS, *emulator):
        value = _at(config, path)
        if value is _MISSING:
            continue
        node = found
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return found


def check_hardware_save(
    new_main: dict[str, Any],
    stored_main: dict[str, Any],
    *,
    board_reader: BoardReader | None = None,
) -> list[dict[str, str]]:
    """Refuse a save whose changed settings break a hardware rule; return its warnings.

    Raises ValidationError (400, ``HARDWARE_SETTING_REFUSED``) naming each refused
    setting in the message and in ``details.problems``; ``details.field`` is the first.
    """
    changed = changed_hardware_settings(stored_main, new_main)
    if not changed:
        return []
    reader = board_reader or board_info.read_board_model
    problems = [p for p in check_config(new_main, board=reader())
                if changed.intersection(p.involves)]
    if emulator_mode(new_main):
        problems = [p.as_warning() for p in problems]
    refused = [p for p in problems if p.severity == "error"]
    if refused:
        raise refused_error(refused)
    return [p.as_dict() for p in problems]


def refused_error(problems: list[Problem]) -> ValidationError:
    """Return the 400 error naming every refused setting."""
    shown = "; ".join(f"{p.setting}: {p.message}" for p in problems)
    return ValidationError(
        f"hardware settings refused, nothing was saved: {shown}",
        error_code=ERROR_CODE,
        details={"field": problems[0].setting, "problems": [p.as_dict() for p in problems]},
    )


_MISSING = object()


def _changed_leaves(stored: dict[str, Any], new: dict[str, Any],
                    paths: tuple[str, ...]) -> set[str]:
    changed: set[str] = set()
    for path in paths:
        old_leaves = _leaves(_at(stored, path), path)
        new_leaves = _leaves(_at(new, path), path)
        for name in old_leaves.keys() | new_leaves.keys():
            old, value = old_leaves.get(name, _MISSING), new_leaves.get(name, _MISSING)
            if type(old) is not type(value) or old != value:
                changed.add(name)
    return changed


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _at(config: dict[str, Any], path: str) -> Any:
    node: Any = config
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def _leaves(value: Any, path: str) -> dict[str, Any]:
    if value is _MISSING:
        return {}
    if isinstance(value, dict) and value:
        leaves: dict[str, Any] = {}
        for key, item in value.items():
            leaves.update(_leaves(item, f"{path}.{key}"))
        return leaves
    return {path: value}
