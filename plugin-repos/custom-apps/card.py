"""A custom app's text, icon and colour as the card ``shared.notify.draw`` paints.

Notifications and custom apps draw the same way: the text in the panel's ladder fonts,
scrolling when it does not fit, the icon on the left, at every panel size. The icon is
made a picture once per app (``shared.notify.icon_source``); one that cannot be (a stored
icon gone missing) leaves the card without an icon.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.notify.draw import Card
from shared.notify.fields import check_icon
from shared.notify.icon_source import icon_image


def card_of(app: dict[str, Any], assets_dir: Path | None) -> Card:
    """The card of a checked custom app."""
    spec, _problem = check_icon(app.get("icon"))  # checked already: a spec or None
    color = app.get("color") or (255, 255, 255)
    return Card(app.get("text") or "", (int(color[0]), int(color[1]), int(color[2])),
                icon_image(spec, assets_dir))
