"""A checked icon (``fields.check_icon``) as the RGBA picture a card draws.

Stored icons live in ``<assets>/notify_icons/<name>.png`` (or ``.gif``): a folder the
user fills (by hand or by a backup), read bounded like every file anyone could
replace. A missing or unreadable stored icon, or a malformed spec (the spec came
over the bus), gives None: the card is drawn without an icon.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Pillow is loaded on first drawing: listing stored icons needs none
    from PIL import Image

from shared.files.regular_file import read_regular
from shared.notify.fields import (
    ASSET_NAME,
    EXTENSIONS,
    ICONS_FOLDER,
    MAX_ICON_SIDE,
    STORED_FILE_BYTES,
    check_icon,
)
from shared.notify.icons import BUILTIN_NAMES, builtin_icon

logger = logging.getLogger(__name__)


def icons_dir(assets_dir: Path) -> Path:
    """Return the folder of stored notification icons under the install's assets."""
    return Path(assets_dir) / ICONS_FOLDER


def stored_names(assets_dir: Path) -> list[str]:
    """Return the names of the stored icons (file names without extension), sorted."""
    try:
        entries = list(icons_dir(assets_dir).iterdir())
    except OSError:
        return []
    return sorted({p.stem for p in entries[:1000]
                   if p.suffix.lower() in EXTENSIONS and ASSET_NAME.match(p.stem)})


def missing_icon(checked: dict[str, Any], assets_dir: Path) -> str | None:
    """Return why a checked body's stored icon cannot be drawn (no such file), else None:
    checked when a notification or custom app is posted, so a typo is refused at once
    instead of showing text without its icon."""
    icon, _problem = check_icon(checked.get("icon"))  # the checked form of either body
    if not (isinstance(icon, dict) and icon.get("kind") == "asset"):
        return None
    name = icon.get("name")
    if name in stored_names(assets_dir):
        return None
    return (f"'icon' {name!r} is neither a built-in icon ({', '.join(BUILTIN_NAMES)}) nor "
            f"a stored icon in {icons_dir(assets_dir)}")


def icon_image(spec: Any, assets_dir: Path | None) -> Image.Image | None:
    """Return the icon a checked spec names as an RGBA image, else None."""
    if not isinstance(spec, dict):
        return None
    kind = spec.get("kind")
    if kind == "builtin" and isinstance(spec.get("name"), str):
        return builtin_icon(spec["name"])
    if kind == "asset" and isinstance(spec.get("name"), str) and assets_dir is not None:
        return _stored(assets_dir, spec["name"])
    if kind == "pixels":
        return _pixels(spec)
    return None


def _stored(assets_dir: Path, name: str) -> Image.Image | None:
    if not ASSET_NAME.match(name):
        return None
    for ext in EXTENSIONS:
        path = icons_dir(assets_dir) / f"{name}{ext}"
        try:
            data = read_regular(path, STORED_FILE_BYTES)
        except FileNotFoundError:
            continue
        except OSError as err:
            logger.warning("notifications: stored icon %s unreadable: %s", name, err)
            return None
        return _decode(name, data)
    logger.warning("notifications: no stored icon named %s in %s", name, icons_dir(assets_dir))
    return None


def _decode(name: str, data: bytes) -> Image.Image | None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width > MAX_ICON_SIDE * 2 or image.height > MAX_ICON_SIDE * 2:
                logger.warning("notifications: stored icon %s is too large", name)
                return None
            return image.convert("RGBA")
    except (OSError, ValueError, Image.DecompressionBombError) as err:
        logger.warning("notifications: stored icon %s unreadable: %s", name, err)
        return None


def _pixels(spec: dict[str, Any]) -> Image.Image | None:
    width, height, pixels = spec.get("width"), spec.get("height"), spec.get("pixels")
    if (not isinstance(width, int) or not isinstance(height, int)
            or not 1 <= width <= MAX_ICON_SIDE or not 1 <= height <= MAX_ICON_SIDE
            or not isinstance(pixels, list) or len(pixels) != width * height):
        return None
    from PIL import Image

    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for index, pixel in enumerate(pixels):
        if (isinstance(pixel, list) and len(pixel) == 3
                and all(isinstance(v, int) and 0 <= v <= 255 for v in pixel)):
            image.putpixel((index % width, index // width), (*pixel, 255))
    return image
