"""The calendar list a calendar plugin provides through its ``list-calendars`` action.

Plugin code never runs inside the web daemon, so the list comes from the plugin's own
web-UI action script (``shared.plugin_system.actions`` runs it). Its answer is checked
and reduced to what the config page's calendar picker shows: ``id``, ``summary`` and
``primary`` per calendar, the primary one first, then by summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.errors import LedpanelError, ValidationError
from shared.plugin_system.actions import ActionError, find_action_script

PLUGIN_ID = "calendar"  # the community Google Calendar plugin's manifest id
LIST_ACTION = "list-calendars"  # the web_ui_actions id a plugin declares to provide the list


class NoCalendarList(LedpanelError):
    """The plugin is installed but declares no ``list-calendars`` script action."""

    error_code = "NO_CALENDAR_LIST"
    status = 409


def list_script(plugin_id: str, plugin_dir: Path) -> Path:
    """Return the plugin's ``list-calendars`` script; none declared is NoCalendarList (409).

    An unsafe script path stays the 400 ``INVALID_PATH`` of ``find_action_script``.
    """
    try:
        return find_action_script(plugin_dir, LIST_ACTION)
    except ValidationError as err:
        if err.error_code != "UNKNOWN_ACTION":
            raise
        raise NoCalendarList(f"{plugin_id} provides no calendar list: {err.message} (a "
                             f"plugin lists its calendars with a {LIST_ACTION!r} script "
                             "action; see docs/PLUGINS.md)") from None


def calendars_from(plugin_id: str, answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the calendars of a ``list-calendars`` answer; an error answer is ActionError."""
    if answer.get("status") == "error":
        message = answer.get("message")
        why = message[:300] if isinstance(message, str) and message else "no reason given"
        raise ActionError(f"{plugin_id}: {LIST_ACTION} failed: {why}")
    entries = answer.get("calendars")
    if not isinstance(entries, list):
        raise ActionError(f"{plugin_id}: {LIST_ACTION} printed no \"calendars\" list")
    calendars = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
            continue  # nothing the picker could select
        summary = entry.get("summary")
        calendars.append({"id": entry["id"],
                          "summary": summary if isinstance(summary, str) and summary
                          else entry["id"],
                          "primary": entry.get("primary") is True})
    calendars.sort(key=lambda c: (not c["primary"], c["summary"].lower()))
    return calendars
