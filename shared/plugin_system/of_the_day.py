"""The of-the-day plugin's data files: ``<plugin folder>/of_the_day/<name>.json``.

The only code that writes or removes there. The community of-the-day plugin reads each
category's file from that folder and looks up today's entry by the day of the year, so
a file is kept only when it is a JSON object whose keys are day numbers ``"1"`` to
``"366"`` and whose values are objects (the plugin reads ``word`` or ``title`` and the
rest from them). A file name is one plain segment ending in ``.json``; nothing is
written or removed through a symlink, and the data folder must be a real directory.
Files are written atomically, re-serialised as UTF-8 JSON the plugin can read.

A store or a delete takes a ``then`` step (the config save that names the categories)
run under the same lock once the files are changed; when it raises, the files are put
back as they were (the previous bytes are kept in memory: data files are small), so a
file and the config that names it never disagree.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError, LedpanelError, NotFoundError, ValidationError
from shared.files.jsonfile import atomic_write_bytes, atomic_write_text, dumps
from shared.files.jsontext import JsonLimitError, parse_strict, syntax_place
from shared.files.regular_file import FileTooLarge, kind_of, read_regular
from shared.ids import is_plain_segment
from shared.plugin_system.uploads import invalid_path

logger = logging.getLogger(__name__)

PLUGIN_ID = "of-the-day"  # the community plugin's manifest id
DATA_DIR = "of_the_day"  # inside the plugin folder, where the plugin reads its files
SUFFIX = ".json"
MAX_FILE_BYTES = 1024 * 1024
MAX_NAME_CHARS = 120
# A file put there by hand may be larger than an upload; this much is kept to put back.
MAX_KEPT_BYTES = 16 * MAX_FILE_BYTES
_lock = threading.Lock()  # one web process writes; a store and a delete do not interleave


def check_name(name: object) -> str:
    """Return ``name`` when it is one plain segment ending in ``.json``; else 400."""
    if name is None or name == "":
        raise ValidationError("a file name is required", error_code="INVALID_PATH",
                              details={"field": "filename"})
    if not isinstance(name, str):
        raise ValidationError("a file name must be text", error_code="INVALID_PATH",
                              details={"field": "filename"})
    if not is_plain_segment(name) or len(name) > MAX_NAME_CHARS:
        raise invalid_path(name)
    if not name.endswith(SUFFIX) or name == SUFFIX:
        raise ValidationError(f"{name[:200]!r} is not a .json file name",
                              error_code="UNSUPPORTED_FILE_TYPE",
                              details={"field": "filename"})
    return name


def parse_data(name: str, data: bytes) -> dict[str, Any]:
    """Return the day entries of an uploaded file; refuse size, syntax and shape (400/413)."""
    if len(data) > MAX_FILE_BYTES:
        raise ValidationError(f"{name[:80]!r} is {len(data)} bytes; at most {MAX_FILE_BYTES}",
                              error_code="FILE_TOO_LARGE", status=413,
                              details={"file": name[:200], "limit": MAX_FILE_BYTES})
    try:
        value = parse_strict(data.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise _bad(name, f"is not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                         f"{err.start})") from None
    except json.JSONDecodeError as err:
        place = syntax_place(err)
        raise _bad(name, f"is not valid JSON: {place.msg} at line {place.lineno} column "
                         f"{place.colno}") from None
    except JsonLimitError as err:
        raise _bad(name, f"is not valid JSON: {err}") from None
    if not isinstance(value, dict) or not value:
        raise _bad(name, 'must be a JSON object of day entries: {"1": {...}, ..., "366": {...}}')
    for key, entry in value.items():
        if not (key.isascii() and key.isdigit() and str(int(key)) == key
                and 1 <= int(key) <= 366):
            raise _bad(name, f"key {key[:40]!r} is not a day of the year (1 to 366)")
        if not isinstance(entry, dict):
            raise _bad(name, f"day {key} is not an object (the plugin reads its "
                             "word or title from it)")
    return value


class OfTheDayFiles:
    """One plugin folder's ``of_the_day/`` data files."""

    def __init__(self, plugin_dir: Path, plugin_id: str = PLUGIN_ID) -> None:
        self.plugin_id = plugin_id
        self.directory = Path(plugin_dir) / DATA_DIR

    def store(self, checked: list[tuple[str, dict[str, Any]]],
              then: Callable[[], object] | None = None) -> list[dict[str, Any]]:
        """Write checked ``(name, day entries)`` atomically; return what was stored.

        Every target is checked before any is written, so a refused one stores none.
        ``then`` runs once all are written, under the same lock; if it (or a write)
        raises, every file is put back as it was (a new one removed, a replaced one's
        previous bytes and mode restored) and the error propagates.
        """
        with _lock:
            self._check_dir(create=True)
            previous: dict[str, tuple[bytes, int] | None] = {}
            for name, _ in checked:
                mode = self._mode(check_name(name))
                if mode is not None and not stat.S_ISREG(mode):
                    raise self._not_regular(name, mode)
                previous[name] = None if mode is None else (self._read(name), mode)
            stored = []
            try:
                for name, days in checked:
                    atomic_write_text(self.directory / name, dumps(days))
                    stored.append(self._describe(name) | {
                        "days": len(days), "replaced": previous[name] is not None})
                if then is not None:
                    then()
            except BaseException:
                self._put_back(previous)
                raise
        return stored

    def delete(self, name: str, then: Callable[[], object] | None = None) -> dict[str, Any]:
        """Remove the data file ``name``; 404 when there is none, 400 for a non-file.

        ``then`` runs once it is removed, under the same lock; if it raises, the file is
        written back as it was and the error propagates.
        """
        name = check_name(name)
        with _lock:
            self._check_dir(create=False)
            mode = self._mode(name)
            if mode is None:
                raise NotFoundError(f"{self.plugin_id} has no data file {name!r}",
                                    error_code="UNKNOWN_DATA_FILE", details={"name": name})
            if not stat.S_ISREG(mode):
                raise self._not_regular(name, mode)
            kept = (self._read(name), mode)
            try:
                os.unlink(self.directory / name)
            except OSError as err:
                raise AtomicWriteError(f"{self.plugin_id}: could not remove {DATA_DIR}/{name}: "
                                       f"{err.strerror or err}") from err
            try:
                if then is not None:
                    then()
            except BaseException:
                self._put_back({name: kept})
                raise
        return self._describe(name)

    def _read(self, name: str) -> bytes:
        """Return a data file's bytes, kept to put it back if the change is undone."""
        try:
            return read_regular(self.directory / name, MAX_KEPT_BYTES, follow_symlinks=False)
        except FileTooLarge as err:
            raise ValidationError(f"{DATA_DIR}/{name} is {err.size} bytes or more; at most "
                                  f"{MAX_KEPT_BYTES} can be kept to undo a change, so it is "
                                  "left as it is", error_code="FILE_TOO_LARGE", status=413,
                                  details={"file": name, "limit": MAX_KEPT_BYTES}) from None
        except OSError as err:
            raise AtomicWriteError(f"{self.plugin_id}: could not read {DATA_DIR}/{name}: "
                                   f"{err.strerror or err}") from err

    def _put_back(self, previous: dict[str, tuple[bytes, int] | None]) -> None:
        """Return each file to what ``previous`` holds (``None``: no file); log what fails."""
        for name, kept in previous.items():
            path = self.directory / name
            try:
                if kept is None:
                    path.unlink(missing_ok=True)
                else:
                    atomic_write_bytes(path, kept[0], stat.S_IMODE(kept[1]))
            except (OSError, LedpanelError) as err:
                logger.error("%s: could not put back %s/%s after a failed change: %s",
                             self.plugin_id, DATA_DIR, name, err)

    def _describe(self, name: str) -> dict[str, Any]:
        return {"name": name, "data_file": f"{DATA_DIR}/{name}",
                "category": name[:-len(SUFFIX)]}

    def _check_dir(self, *, create: bool) -> None:
        """Refuse a data folder that is a symlink or no directory (it could point anywhere)."""
        try:
            mode = os.lstat(self.directory).st_mode
        except FileNotFoundError:
            if create:
                try:
                    self.directory.mkdir()
                except OSError as err:
                    raise AtomicWriteError(f"{self.plugin_id}: could not create {DATA_DIR}/: "
                                           f"{err.strerror or err}") from err
            return
        if not stat.S_ISDIR(mode):
            raise ValidationError(f"{self.plugin_id}: {DATA_DIR}/ is {kind_of(mode)}, not a "
                                  "plain directory", error_code="INVALID_PATH",
                                  details={"field": "filename"})

    def _mode(self, name: str) -> int | None:
        try:
            return os.lstat(self.directory / name).st_mode
        except FileNotFoundError:
            return None

    def _not_regular(self, name: str, mode: int) -> ValidationError:
        return ValidationError(f"{DATA_DIR}/{name} is {kind_of(mode)}, not a regular file; "
                               "it is left as it is", error_code="INVALID_PATH",
                               details={"field": "filename"})


def _bad(name: str, problem: str) -> ValidationError:
    return ValidationError(f"{name[:80]!r} {problem}", error_code="INVALID_DATA_FILE",
                           details={"file": name[:200]})
