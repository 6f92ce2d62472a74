"""Check an uploaded backup ZIP whole, treating it as hostile, before anything is written.

Entry names are checked before any entry is read: no absolute paths, no ``..`` or empty
segments, no backslashes, no symlinks, no duplicates, only the places ``archive`` writes,
at most ``MAX_ENTRIES`` and ``MAX_TOTAL_BYTES`` declared in all (each entry within its
own limit). Then every entry is read, at most its limit, and must match the manifest's
size and sha256; the config files must parse (``shared.files.jsontext``) as objects, fonts
must load as the fonts upload checks them, plugin uploads must be images as the uploads
rules say. The config's own rules are applied by ``restore.config_plan``.
"""

from __future__ import annotations

import hashlib
import stat
import zipfile
from dataclasses import dataclass, field
from typing import IO, Any

from shared.errors import LedpanelError, ValidationError
from shared.files.jsontext import JsonLimitError, parse_strict
from shared.fonts.catalog import build_index, collections, normalize
from shared.fonts.uploads import MAX_FONT_BYTES, check_family, shipped_fonts
from shared.fonts.validate import check_font, kind_for_name
from shared.ids import is_plain_segment
from shared.notify.fields import STORED_FILE_BYTES as ICON_FILE_BYTES
from shared.notify.fields import is_icon_file
from shared.plugin_system.uploads import INDEX_FILE, MAX_FILE_BYTES, sniff_image
from web_service.backup.archive import (
    ASSETS_PREFIX,
    CONFIG_ENTRY,
    FONTS_PREFIX,
    FORMAT_NAME,
    FORMAT_VERSION,
    ICONS_PREFIX,
    MANIFEST_NAME,
    MAX_CONFIG_BYTES,
    MAX_ENTRIES,
    MAX_TOTAL_BYTES,
    SECRETS_ENTRY,
)

#: The largest backup file accepted for a restore (the request cap of its route).
MAX_ARCHIVE_BYTES = 48 * 1024 * 1024


@dataclass
class CheckedBackup:
    """A backup whose every entry passed; the archive stays open to copy from."""

    archive: zipfile.ZipFile
    manifest: dict[str, Any]
    main: dict[str, Any]
    secrets: dict[str, Any] | None
    #: entry name -> sha256, for fonts (``fonts/<file>``) and plugin uploads.
    files: dict[str, str] = field(default_factory=dict)

    def read(self, entry: str) -> bytes:
        """Return an entry's bytes again, refused if they no longer match the check."""
        data = self.archive.read(entry)
        if hashlib.sha256(data).hexdigest() != self.files[entry]:
            raise _bad(f"{entry} changed after it was checked", "BACKUP_CHECKSUM_MISMATCH",
                       entry)
        return data


def check_archive(stream: IO[bytes]) -> CheckedBackup:
    """Return the checked backup read from a seekable ``stream``, or raise naming the
    first problem (the archive is closed then)."""
    size = stream.seek(0, 2)
    stream.seek(0)
    if size > MAX_ARCHIVE_BYTES:
        raise _too_large(f"the backup is {size} bytes; at most {MAX_ARCHIVE_BYTES} accepted")
    try:
        archive = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as err:
        raise _bad(f"the file is not a ZIP archive ({err})", "INVALID_BACKUP") from None
    try:
        return _check_open(archive)
    except Exception:
        archive.close()
        raise


def _check_open(archive: zipfile.ZipFile) -> CheckedBackup:
    members = _check_names(archive.infolist())
    if MANIFEST_NAME not in members:
        raise _bad(f"the ZIP holds no {MANIFEST_NAME}: it is not a ledpanel backup",
                   "INVALID_BACKUP_MANIFEST", MANIFEST_NAME)
    manifest = _parse_object(_read(archive, members[MANIFEST_NAME], MAX_CONFIG_BYTES),
                             MANIFEST_NAME, "INVALID_BACKUP_MANIFEST")
    listed = _manifest_files(manifest, set(members) - {MANIFEST_NAME})
    contents: dict[str, bytes] = {}
    sums: dict[str, str] = {}
    for name, info in members.items():
        if name == MANIFEST_NAME:
            continue
        data = _read(archive, info, _limit(name))
        digest = hashlib.sha256(data).hexdigest()
        if digest != listed[name].get("sha256") or len(data) != listed[name].get("size"):
            raise _bad(f"{name} does not match the manifest's size and sha256: the backup "
                       "is damaged or was altered", "BACKUP_CHECKSUM_MISMATCH", name)
        sums[name] = digest
        if name.startswith("config/"):
            contents[name] = data
        else:
            _check_file(name, data)
    main = _parse_object(contents[CONFIG_ENTRY], CONFIG_ENTRY, "INVALID_CONFIG")
    secrets = (_parse_object(contents[SECRETS_ENTRY], SECRETS_ENTRY, "INVALID_CONFIG")
               if SECRETS_ENTRY in contents else None)
    _check_font_names([n[len(FONTS_PREFIX):] for n in sums if n.startswith(FONTS_PREFIX)])
    files = {n: s for n, s in sums.items() if not n.startswith("config/")}
    return CheckedBackup(archive, manifest, main, secrets, files)


def _check_names(infos: list[zipfile.ZipInfo]) -> dict[str, zipfile.ZipInfo]:
    """Return the file entries by name once every name, kind and size is acceptable."""
    if len(infos) > MAX_ENTRIES:
        raise _too_large(f"the backup has {len(infos)} entries; at most {MAX_ENTRIES}")
    members: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        name = info.filename
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise _unsafe(name, "is a symbolic link")
        if info.orig_filename != name and "\\" in info.orig_filename:
            raise _unsafe(info.orig_filename, "has a backslash in its name")
        _check_path(name)
        if info.is_dir():
            continue
        if name in members:
            raise _unsafe(name, "appears twice")
        if info.flag_bits & 0x1:
            raise _bad(f"{name} is encrypted", "INVALID_BACKUP", name)
        if info.file_size > _limit(name):
            raise _too_large(f"{name} is {info.file_size} bytes; at most {_limit(name)}", name)
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise _too_large(f"the backup unpacks to more than {MAX_TOTAL_BYTES} bytes")
        members[name] = info
    return members


def _check_path(name: str) -> None:
    if name.startswith("/") or "\\" in name or "\x00" in name or ":" in name.split("/")[0]:
        raise _unsafe(name, "is an absolute path")
    segments = name.rstrip("/").split("/")
    if any(s in ("", ".", "..") for s in segments):
        raise _unsafe(name, "has an empty, '.' or '..' segment")
    if name.endswith("/"):
        return
    if name in (MANIFEST_NAME, CONFIG_ENTRY, SECRETS_ENTRY):
        return
    if len(segments) == 2 and name.startswith(FONTS_PREFIX) and is_plain_segment(segments[1]):
        return
    if (len(segments) == 5 and name.startswith(ASSETS_PREFIX) and segments[3] == "uploads"
            and is_plain_segment(segments[2])
            and (is_plain_segment(segments[4]) or segments[4] == INDEX_FILE)):
        return
    if len(segments) == 3 and name.startswith(ICONS_PREFIX) and is_icon_file(segments[2]):
        return
    raise _unsafe(name, "is not a place a backup holds files")


def _limit(name: str) -> int:
    if name.startswith(FONTS_PREFIX):
        return MAX_FONT_BYTES
    if name.startswith(ASSETS_PREFIX) and not name.endswith("/" + INDEX_FILE):
        return MAX_FILE_BYTES
    if name.startswith(ICONS_PREFIX):
        return ICON_FILE_BYTES
    return MAX_CONFIG_BYTES


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError,
            RuntimeError) as err:  # CRC errors, bad compression, torn data
        raise _bad(f"{info.filename} cannot be read ({err})", "INVALID_BACKUP",
                   info.filename) from None
    if len(data) > limit or len(data) != info.file_size:
        raise _too_large(f"{info.filename} unpacks to more than it claims", info.filename)
    return data


def _manifest_files(manifest: dict[str, Any], present: set[str]) -> dict[str, dict[str, Any]]:
    if manifest.get("format") != FORMAT_NAME or manifest.get("format_version") != FORMAT_VERSION:
        raise _bad(f"{MANIFEST_NAME} is not a {FORMAT_NAME} manifest of format version "
                   f"{FORMAT_VERSION}", "INVALID_BACKUP_MANIFEST", MANIFEST_NAME)
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, dict) for v in files.values()):
        raise _bad(f"{MANIFEST_NAME} has no 'files' object", "INVALID_BACKUP_MANIFEST",
                   MANIFEST_NAME)
    if set(files) != present:
        odd = sorted(set(files) ^ present)[:5]
        raise _bad(f"{MANIFEST_NAME} does not list exactly the files in the ZIP: {odd}",
                   "INVALID_BACKUP_MANIFEST", MANIFEST_NAME)
    if CONFIG_ENTRY not in present:
        raise _bad(f"the backup holds no {CONFIG_ENTRY}", "INVALID_BACKUP_MANIFEST",
                   CONFIG_ENTRY)
    return files


def _parse_object(data: bytes, name: str, code: str) -> dict[str, Any]:
    try:
        value = parse_strict(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise _bad(f"{name} is not UTF-8 text (byte {err.start})", code, name) from None
    except (ValueError, JsonLimitError) as err:  # JSONDecodeError is a ValueError
        raise _bad(f"{name} is not valid JSON: {err}", code, name) from None
    if not isinstance(value, dict):
        raise _bad(f"{name} must hold a JSON object", code, name)
    return value


def _check_file(name: str, data: bytes) -> None:
    """Check a font, plugin upload or notification icon's bytes as their own routes and
    readers do."""
    file_name = name.rsplit("/", 1)[-1]
    if name.startswith(FONTS_PREFIX):
        kind = kind_for_name(file_name)
        stem = file_name.rsplit(".", 1)[0]
        if kind is None or file_name != f"{stem}.{kind}":
            raise _bad(f"{name}: a font file is <family>.bdf, .pcf, .ttf or .otf",
                       "UNSUPPORTED_FONT_TYPE", name)
        try:
            if check_family(stem) != stem:
                raise _bad(f"{name}: a font family is stored in lower case",
                           "INVALID_FONT_FAMILY", name)
            check_font(data, kind, file_name)
        except ValidationError as err:
            raise _bad(f"{name}: {err.message}", err.error_code, name) from None
    elif file_name == INDEX_FILE:
        _parse_object(data, name, "INVALID_BACKUP")
    elif name.startswith(ICONS_PREFIX):
        found = sniff_image(data)
        if found is None or found[1] != "." + file_name.rsplit(".", 1)[1]:
            raise _bad(f"{name} is not a {file_name.rsplit('.', 1)[1].upper()} image",
                       "UNSUPPORTED_FILE_TYPE", name)
    elif sniff_image(data) is None:
        raise _bad(f"{name} is not a PNG, JPEG, GIF, BMP or WebP image",
                   "UNSUPPORTED_FILE_TYPE", name)


def _check_font_names(files: list[str]) -> None:
    """Refuse fonts that take a built-in font's name or each other's."""
    shipped = shipped_fonts()
    taken = set(build_index(shipped)) | set(collections(shipped))
    seen: set[str] = set()
    for file_name in files:
        key = normalize(file_name.rsplit(".", 1)[0])
        if key in taken or key in seen:
            raise _bad(f"fonts/{file_name}: its family is a built-in font's or another "
                       "font's in the backup", "FONT_FAMILY_TAKEN", f"fonts/{file_name}",
                       status=409)
        seen.add(key)


def _bad(message: str, code: str, entry: str | None = None,
         status: int | None = None) -> ValidationError:
    details = {"field": "backup_file"} | ({"entry": entry[:200]} if entry else {})
    return ValidationError(message[:400], error_code=code, details=details, status=status)


def _unsafe(name: str, why: str) -> ValidationError:
    return _bad(f"entry {name[:200]!r} {why}; nothing was restored", "UNSAFE_BACKUP_ENTRY",
                name)


def _too_large(message: str, entry: str | None = None) -> LedpanelError:
    details = {"field": "backup_file"} | ({"entry": entry[:200]} if entry else {})
    return LedpanelError(message, error_code="BACKUP_TOO_LARGE", status=413, details=details)
