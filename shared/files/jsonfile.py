"""Atomic file writes: every writer of config or bus files goes through here.

A reader sees either the old file or the new one, never a torn one, even if the writer
is killed mid-write: the data goes to a unique temp file in the same directory, is
fsynced, renamed over the target with ``os.replace`` and the directory is fsynced.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError
from shared.files.jsontext import parse_strict, syntax_place
from shared.files.regular_file import FileTooLarge, NotRegularFile, read_regular

# The most a config, template, manifest or schema file may hold to be read at all.
READ_LIMIT = 4 * 1024 * 1024


def atomic_write_bytes(
    path: Path, data: bytes, mode: int = 0o644, *, tmp_dir: Path | None = None
) -> None:
    """Replace ``path`` with ``data`` atomically.

    ``tmp_dir`` (same filesystem) holds the temp file instead of the target's directory;
    the bus uses it so a watched directory sees one rename-in event per write.
    """
    path = Path(path)
    directory = path.parent
    tmp_name: str | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if tmp_dir is not None:
            tmp_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                        dir=tmp_dir or directory)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
        tmp_name = None
        fsync_dir(directory)
    except OSError as err:
        raise AtomicWriteError(f"could not write {path}: {err.strerror or err}") from err
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def atomic_write_text(
    path: Path, text: str, mode: int = 0o644, *, tmp_dir: Path | None = None
) -> None:
    """Replace ``path`` with UTF-8 ``text`` atomically."""
    atomic_write_bytes(path, text.encode("utf-8"), mode, tmp_dir=tmp_dir)


def dumps(data: Any) -> str:
    """Serialise JSON the way every file of ours is written (indented, trailing newline)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def atomic_write_json(
    path: Path,
    data: Any,
    mode: int = 0o644,
    *,
    compact: bool = False,
    tmp_dir: Path | None = None,
    text: str | None = None,
) -> None:
    """Replace ``path`` with ``data`` as JSON atomically.

    ``text``: ``data`` as serialised already (``dumps(data)``), for a caller that had to
    serialise it before (to measure it): written as it is.
    """
    if text is None:
        text = json.dumps(data, separators=(",", ":")) if compact else dumps(data)
    atomic_write_text(path, text, mode, tmp_dir=tmp_dir)


def read_json(path: Path) -> Any:
    """Read a JSON file; raise FileNotFoundError or json.JSONDecodeError as they come."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def fsync_dir(directory: Path) -> None:
    """Make a folder's entries (a rename into it) durable; best effort."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json_file(path: Path, what: str) -> Any:
    """Read and parse a JSON file; every failure is a ConfigError a person can act on.

    ``what`` says what the file is ("config file", "config template"). Text that is not
    valid JSON, or not UTF-8, raises ``CONFIG_INVALID_JSON`` naming the file, line and
    column (``details``: ``file``, ``line``, ``column``), and so does JSON outside
    ``shared.files.jsontext``'s limits (NaN, deep nesting, huge integers); a missing file raises
    ``FILE_NOT_FOUND`` and an unreadable one ``CONFIG_ERROR``. Callers check the shape.
    """
    from shared.errors import ConfigFileInvalid

    path = Path(path)
    text = decode_utf8(read_file_bytes(path, what), path, what)
    try:
        # Strict: a NaN, a 700-deep value or a 4,300-digit integer typed in by hand
        # must be a file problem here, not a crash in whoever uses the value.
        return parse_strict(text)
    except json.JSONDecodeError as err:
        place = syntax_place(err)
        raise ConfigFileInvalid(
            f"{what} {path.name} is not valid JSON: {place.msg} at line {place.lineno}, "
            f"column {place.colno} ({path})",
            error_code="CONFIG_INVALID_JSON",
            details={"file": str(path), "line": place.lineno, "column": place.colno},
        ) from err
    except ValueError as err:  # JsonLimitError: outside what parse_strict accepts
        raise ConfigFileInvalid(f"{what} {path.name} is not usable JSON: {err} ({path})",
                                error_code="CONFIG_INVALID_JSON",
                                details={"file": str(path)}) from err


def read_file_bytes(path: Path, what: str) -> bytes:
    """Return a file's bytes; raise ConfigError ``FILE_NOT_FOUND`` or ``CONFIG_ERROR``, or
    ``CONFIG_INVALID_JSON`` for something that is not a regular file or is larger than
    ``READ_LIMIT`` (read whole, a hand-made 300 MB file held a daemon's start for long).

    A symlink is not followed: a link in the config folder could make the raw editor,
    a backup or an error message show any file the daemon can read (``/etc/shadow``)."""
    from shared.errors import ConfigError, ConfigFileInvalid

    path = Path(path)
    try:
        return read_regular(path, READ_LIMIT, follow_symlinks=False)
    except FileTooLarge as err:
        raise ConfigFileInvalid(f"{what} {path.name} is larger than {READ_LIMIT} bytes, "
                                f"more than any save writes ({path})",
                                details={"file": str(path)}) from err
    except NotRegularFile as err:  # a FIFO in the file's place would block for ever
        raise ConfigFileInvalid(f"{what} {path.name} is {err.kind}, not a regular file, and "
                                f"is not read: put the file itself at {path}",
                                details={"file": str(path), "kind": err.kind}) from err
    except FileNotFoundError as err:
        raise ConfigError(f"{what} {path.name} not found ({path})", error_code="FILE_NOT_FOUND",
                          details={"file": str(path)}) from err
    except OSError as err:
        raise ConfigError(f"cannot read {what} {path.name} in {path.parent}: "
                          f"{err.strerror or err}", details={"file": str(path)}) from err


def decode_utf8(data: bytes, path: Path, what: str, advice: str = "") -> str:
    """Return ``data`` as UTF-8 text, or raise ConfigError naming the bad byte's position.

    The error is ``CONFIG_INVALID_JSON`` with ``details`` ``file``, ``line`` and
    ``column``; ``advice`` is appended to the message.
    """
    from shared.errors import ConfigFileInvalid

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ConfigFileInvalid(
            f"{what} {path.name} is not UTF-8 text: byte 0x{data[err.start]:02x} at line "
            f"{line}, column {column} ({path}){'; ' + advice if advice else ''}",
            error_code="CONFIG_INVALID_JSON",
            details={"file": str(path), "line": line, "column": column},
        ) from err
