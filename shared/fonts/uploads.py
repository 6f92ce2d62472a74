"""Fonts users upload: one file per family, ``<family>.<kind>``, in ``Paths.fonts_upload_dir``.

The only code that writes or removes there. The display's font manager scans the
folder after the shipped fonts (``font_dirs``) and scans again when the web publishes
``fonts_changed`` on the bus. A family is one plain name (letters, digits, ``-``,
``_``), kept in lower case, and may not be a name the shipped fonts answer to or another
upload's under the catalog's lookup rule, which ignores case and punctuation
(``My_Font`` and ``my-font`` are one name). Nothing is read, written or removed through
a symlink: the folder must be a real directory and only regular files in it count.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.bus.core import FONTS_CHANGED, Bus
from shared.errors import LedpanelError, NotFoundError, ValidationError
from shared.files.jsonfile import atomic_write_bytes
from shared.files.regular_file import read_regular
from shared.fonts.catalog import (
    SHIPPED_FONTS_DIR,
    FontInfo,
    build_index,
    collections,
    describe,
    normalize,
    scan,
)
from shared.fonts.validate import FontFileKind, check_font, invalid_font, kind_for_name
from shared.ids import is_plain_segment
from shared.paths import Paths
from shared.upload_budget import check_room

logger = logging.getLogger(__name__)

# Below the web's 2 MiB request limit, so the whole multipart body fits.
MAX_FONT_BYTES = 1536 * 1024
#: Sizes offered for a scalable (TTF/OTF) font; a bitmap font has its native one only.
SUGGESTED_SIZES = (8, 10, 12, 16, 24, 32)
MAX_FAMILY_CHARS = 64
_FAMILY = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_FAMILY_CHARS}}}")
_lock = threading.Lock()  # one web process writes; a check and its write do not interleave


def font_dirs(paths: Paths) -> list[Path]:
    """Return the folders a font manager scans, in order: shipped fonts, then uploads."""
    return [SHIPPED_FONTS_DIR, paths.fonts_upload_dir]


def shipped_fonts() -> dict[str, FontInfo]:
    """Return the shipped fonts by family."""
    return scan([SHIPPED_FONTS_DIR])


def listing_order(family: str) -> tuple[tuple[int, int | str], ...]:
    """Return the key listing families with their numbers compared as numbers.

    ``6x9`` comes before ``6x10`` and ``10x20`` after ``9x18``, as a person reads them.
    """
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", family) if part)


def catalog_entry(info: FontInfo, builtin: bool) -> dict[str, Any]:
    """Return one font as the API lists it."""
    return {"family": info.family, "file": info.path.name,
            "kind": info.path.suffix.lower().lstrip("."),
            "sizes": [info.native_size] if info.native_size else list(SUGGESTED_SIZES),
            "native_size": info.native_size, "scalable": info.kind == "ttf",
            "builtin": builtin}


def check_family(value: object) -> str:
    """Return a new font's family name in lower case, or raise ``INVALID_FONT_FAMILY``."""
    if not isinstance(value, str) or not value:
        raise ValidationError("font_family is required", error_code="INVALID_FONT_FAMILY",
                              details={"field": "font_family"})
    if not _FAMILY.fullmatch(value) or not normalize(value):
        raise ValidationError(
            f"font_family {value[:80]!r} is not a plain name: 1 to {MAX_FAMILY_CHARS} "
            "letters, digits, '-' or '_', with at least one letter or digit",
            error_code="INVALID_FONT_FAMILY", details={"field": "font_family"})
    return value.lower()


def check_name_given(value: object) -> str:
    """Return a family name from a URL or query, or raise ``INVALID_FONT_FAMILY``."""
    if not isinstance(value, str) or not is_plain_segment(value) or len(value) > 100:
        shown = value[:80] if isinstance(value, str) else value
        raise ValidationError(f"font {shown!r} is not a plain font family name",
                              error_code="INVALID_FONT_FAMILY", details={"field": "font"})
    return value


@dataclass(frozen=True)
class CheckedFont:
    """An upload that passed every check, not yet stored."""

    family: str
    kind: FontFileKind
    data: bytes

    @property
    def file_name(self) -> str:
        return f"{self.family}.{self.kind}"


class FontUploads:
    """The folder of uploaded fonts."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def fonts(self) -> dict[str, FontInfo]:
        """Return the uploaded fonts by family: usable regular font files only."""
        found: dict[str, FontInfo] = {}
        for path in self._files():
            info = describe(path)
            if info is not None:
                found.setdefault(info.family, info)
        return found

    def catalog(self) -> list[dict[str, Any]]:
        """Return every font, shipped ones first, as the API lists them."""
        shipped = shipped_fonts()
        uploaded = self.fonts()
        return ([catalog_entry(shipped[f], True) for f in sorted(shipped, key=listing_order)]
                + [catalog_entry(uploaded[f], False) for f in sorted(uploaded, key=listing_order)])

    def find(self, name: str) -> tuple[FontInfo, bool]:
        """Return the font a family name or alias names and whether it is built in."""
        shipped = shipped_fonts()
        family = build_index(shipped).get(normalize(name))
        if family is not None:
            return shipped[family], True
        for info in self.fonts().values():
            if normalize(info.family) == normalize(name):
                return info, False
        raise NotFoundError(f"no font family {name[:80]!r}; GET /api/v3/fonts/catalog lists them",
                            error_code="FONT_NOT_FOUND", details={"field": "font"})

    def read(self, info: FontInfo) -> bytes:
        """Return a font file's bytes, never through a symlink."""
        return read_regular(info.path, MAX_FONT_BYTES * 4, follow_symlinks=False)

    def check(self, file_name: str | None, family: object, data: bytes) -> CheckedFont:
        """Check one upload (name, family, size, free family, loads); store nothing."""
        family = check_family(family)
        name = file_name or ""
        kind = kind_for_name(name)
        if kind is None:
            raise ValidationError(f"{name[:80]!r}: a font file's name must end in .bdf, .pcf, "
                                  ".ttf or .otf", error_code="UNSUPPORTED_FONT_TYPE",
                                  details={"field": "font_file"})
        if len(data) > MAX_FONT_BYTES:
            raise ValidationError(f"{name[:80]!r} is more than {MAX_FONT_BYTES} bytes, the "
                                  "largest font file accepted", error_code="FILE_TOO_LARGE",
                                  status=413, details={"field": "font_file"})
        self._check_free(family)
        check_font(data, kind, name)
        return CheckedFont(family, kind, data)

    def store(self, checked: CheckedFont) -> FontInfo:
        """Write a checked upload atomically and return its catalog entry."""
        with _lock:
            self._check_free(checked.family)  # again: another upload may have won
            # The fonts folder is <assets>/fonts_uploaded: all uploads share one budget.
            check_room(self.directory.parent, [len(checked.data)])
            self._ensure_dir()
            path = self.directory / checked.file_name
            atomic_write_bytes(path, checked.data, 0o644)
        info = describe(path)
        if info is None:  # checked above, so only a file changed under us lands here
            self._remove(path)
            raise invalid_font(checked.file_name, "the stored file does not load")
        logger.info("font %s uploaded (%s, %d bytes)", info.family, path.name,
                    len(checked.data))
        return info

    def delete(self, name: str) -> dict[str, str]:
        """Remove an uploaded font by family (``family`` and ``file`` removed); a built-in
        one is refused."""
        key = normalize(check_name_given(name))
        if key in build_index(shipped_fonts()):
            raise LedpanelError(f"{name!r} is a built-in font and cannot be deleted",
                                error_code="BUILTIN_FONT", status=403,
                                details={"field": "font_family"})
        with _lock:
            for path in self._files():
                if path.stem.lower() == name.lower():  # a file that no longer loads too
                    self._remove(path)
                    logger.info("font %s deleted (%s)", path.stem.lower(), path.name)
                    return {"family": path.stem.lower(), "file": path.name}
        raise NotFoundError(f"no uploaded font family {name[:80]!r}",
                            error_code="FONT_NOT_FOUND", details={"field": "font_family"})

    # -- internals -------------------------------------------------------------

    def _check_free(self, family: str) -> None:
        key = normalize(family)
        shipped = shipped_fonts()
        if key in build_index(shipped) or key in collections(shipped):
            raise LedpanelError(f"font family {family!r} is a built-in font's name; choose "
                                "another", error_code="FONT_FAMILY_TAKEN", status=409,
                                details={"field": "font_family", "builtin": True})
        for path in self._files():
            if normalize(path.stem) == key:
                raise LedpanelError(
                    f"font family {family!r} is taken by the uploaded {path.name}; delete it "
                    "first to replace it", error_code="FONT_FAMILY_TAKEN", status=409,
                    details={"field": "font_family", "builtin": False})

    def _real_dir(self) -> bool:
        try:
            return stat.S_ISDIR(os.lstat(self.directory).st_mode)
        except OSError:
            return False

    def _ensure_dir(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise LedpanelError(f"cannot create the fonts folder {self.directory}: "
                                f"{err.strerror or err}", error_code="WRITE_FAILED") from err
        if not self._real_dir():
            raise LedpanelError(f"the fonts folder {self.directory} is not a real directory "
                                "(a symlink?); nothing is written through it",
                                error_code="WRITE_FAILED")

    def _files(self) -> list[Path]:
        """Return the regular font files directly in the folder, by name."""
        if not self._real_dir():
            return []
        try:
            names = sorted(os.listdir(self.directory))
        except OSError:
            return []
        files = []
        for name in names:
            if name.startswith(".") or kind_for_name(name) is None:
                continue
            try:
                if stat.S_ISREG(os.lstat(self.directory / name).st_mode):
                    files.append(self.directory / name)
            except OSError:
                continue
        return files

    @staticmethod
    def _remove(path: Path) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as err:
            raise LedpanelError(f"cannot remove {path.name}: {err.strerror or err}",
                                error_code="WRITE_FAILED") from err


def notify_display(bus: Bus, change: str, family: str) -> str | None:
    """Tell the display the fonts changed; return why it could not be told, else None."""
    try:
        bus.publish(FONTS_CHANGED, {"seq": time.time_ns(), "change": change, "family": family})
    except (LedpanelError, ValueError) as err:
        problem = getattr(err, "message", str(err))
        logger.warning("font %s %s, but the display was not told: %s", family, change, problem)
        return problem
    return None
