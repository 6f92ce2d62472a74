"""The ``rotation_order`` setting: which plugins the display shows first, and in what order.

One list of plugin ids. Listed plugins come first, in the list's order; the others
follow in sorted id order. Ids that are not loaded are skipped but stay in the stored
list, so a plugin that is uninstalled and installed again keeps its place. Saves refuse
anything but a list of plain plugin ids without repeats (``order_problem``, through
``values.RULES``); readers (``effective_order``) skip what a hand edit got wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.ids import is_plain_segment

KEY = "rotation_order"
MAX_ITEMS = 200
MAX_ID_CHARS = 200  # as long as any plugin id the install paths accept in practice


def order_problem(value: Any) -> str | None:
    """Return what is wrong with a ``rotation_order`` value, or None when it is allowed."""
    if not isinstance(value, list):
        return 'must be a list of plugin ids such as ["clock", "weather"]'
    if len(value) > MAX_ITEMS:
        return f"may list at most {MAX_ITEMS} plugins (got {len(value)})"
    seen: set[str] = set()
    for index, item in enumerate(value):
        if not isinstance(item, str):
            return f"item {index} must be a plugin id (text), not {_kind(item)}"
        shown = item if len(item) <= 60 else item[:57] + "..."
        if len(item) > MAX_ID_CHARS or not is_plain_segment(item):
            return f"item {index} ({shown!r}) is not a plugin id (one plain name, no / or \\)"
        if item in seen:
            return f"lists {shown!r} twice"
        seen.add(item)
    return None


def effective_order(plugin_ids: Iterable[str], order: Any) -> list[str]:
    """Return ``plugin_ids`` in rotation order: the listed ones first, then the rest sorted.

    ``order`` is the stored setting as read: anything but a list counts as empty, and
    items that are not text, repeated or not among ``plugin_ids`` are skipped.
    """
    present = set(plugin_ids)
    listed = [p for p in (order if isinstance(order, list) else []) if isinstance(p, str)]
    first = [p for p in dict.fromkeys(listed) if p in present]
    return first + sorted(present.difference(first))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "a list" if isinstance(value, list) else "an object"
