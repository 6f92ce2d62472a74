"""What the Fonts, Cache, Operation History and WiFi tabs show when the server draws them.

Each tab's partial is drawn from the same readers the API uses, so the page and
``/api/v3`` never disagree; the tabs' scripts redraw a tab by fetching its partial
again. Every value goes through Jinja's autoescape.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from flask import request

from shared import history as store
from shared.errors import LedpanelError
from shared.fonts.uploads import MAX_FONT_BYTES, FontUploads
from shared.ids import is_plain_segment
from shared.plugin_api.cache.entries import PluginCache
from web_service.history import history
from web_service.services import services
from web_service.wifi import nmcli

HISTORY_PAGE = 50
PREVIEW_TEXT = "Hello 123"


def tool_context(name: str) -> dict[str, Any]:
    """Return the context of one tool tab's partial; {} for any other tab."""
    builder = _BUILDERS.get(name)
    return builder() if builder else {}


def human_size(size: int) -> str:
    """Return a byte count as people read it: 83 B, 1.5 KiB, 2.0 MiB."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # unreachable: the loop always returns


def human_age(seconds: float) -> str:
    """Return an age as people read it: 12 s, 5 min, 3 h, 2 d."""
    seconds = max(0.0, seconds)
    for limit, unit, div in ((60, "s", 1), (3600, "min", 60), (86400, "h", 3600)):
        if seconds < limit:
            return f"{int(seconds // div)} {unit}"
    return f"{int(seconds // 86400)} d"


def _fonts() -> dict[str, Any]:
    uploads = FontUploads(services().settings.paths.fonts_upload_dir)
    return {"fonts": uploads.catalog(), "max_upload_bytes": MAX_FONT_BYTES,
            "max_upload_text": human_size(MAX_FONT_BYTES), "preview_text": PREVIEW_TEXT}


def _cache() -> dict[str, Any]:
    entries, cut = PluginCache(services().settings.paths.cache_dir).entries()
    rows = [{**e.as_dict(), "size_text": human_size(e.size), "age_text": human_age(e.age_seconds)}
            for e in entries]
    return {"entries": rows, "truncated": cut,
            "total_text": human_size(sum(e.size for e in entries))}


def _history() -> dict[str, Any]:
    kind = request.args.get("kind") or None
    plugin_id = request.args.get("plugin_id") or None
    before = request.args.get("before") or None
    context: dict[str, Any] = {"kind": kind, "plugin_id": plugin_id, "kinds": store.KINDS,
                               "entries": [], "next_before": None, "problem": None,
                               "plugin_ids": _plugin_ids(), "page_only": bool(before)}
    if kind is not None and kind not in store.KINDS:
        context["problem"] = f"There is no kind {kind!r}: choose one of the list."
    elif plugin_id is not None and not is_plain_segment(plugin_id):
        context["problem"] = "That plugin id is not one plain name."
    elif before is not None and not re.fullmatch(r"[0-9]{1,20}", before):
        context["problem"] = "The page to start from is not an entry id."
    else:
        try:
            entries, more = history().reader.entries(
                limit=HISTORY_PAGE, before=int(before) if before else None, kind=kind,
                plugin_id=plugin_id)
        except LedpanelError as err:
            context["problem"] = err.message
        else:
            context["entries"] = [{**e, **_when(e["at"])} for e in entries]
            context["next_before"] = entries[-1]["id"] if more and entries else None
    return context


def _when(at: float) -> dict[str, str]:
    """An entry's time: ISO for the page's script (which shows it in local time), UTC text."""
    moment = datetime.fromtimestamp(at, tz=UTC)
    return {"at_iso": moment.isoformat(timespec="seconds"),
            "at_text": moment.strftime("%Y-%m-%d %H:%M:%S UTC")}


def _plugin_ids() -> list[str]:
    """The installed plugins' ids, for the history's plugin filter (none if unreadable)."""
    try:
        plugins = services().catalog.installed()
    except LedpanelError:
        return []
    return sorted(str(p["id"]) for p in plugins if is_plain_segment(p.get("id")))


def _wifi() -> dict[str, Any]:
    """Whether nmcli is there: without it the tab says so and asks nothing."""
    try:
        nmcli.find()
    except nmcli.WifiUnavailable as err:
        return {"wifi_missing": err.message}
    return {"wifi_missing": None}


_BUILDERS = {"fonts": _fonts, "cache": _cache, "history": _history, "wifi": _wifi}
