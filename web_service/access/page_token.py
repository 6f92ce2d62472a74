"""The per-install token our own pages carry, so a browser may send them non-JSON bodies.

A form or ``text/plain`` POST is a "simple" request a page on any site can make a
browser send, so such bodies from a browser are accepted only with this token, which
only our pages know (another site cannot read them). It is random, made once per
install and kept in the config directory beside config.json (not in it: the raw
editor shows config.json), readable by the web user only.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

from shared.errors import ConfigError
from shared.files.regular_file import read_regular

TOKEN_FILE_NAME = ".page_token"
# Where a request carries the token: a header (our scripts) or a form field (our forms).
TOKEN_HEADER = "X-Ledpanel-Token"
TOKEN_FIELD = "csrf_token"
# More fields than any form of ours sends (the General tab sends about a hundred).
MAX_FORM_FIELDS = 2000
_MIN_LENGTH = 32


def load_or_create(config_dir: Path) -> str:
    """Return the install's token, creating the file on first use.

    A second creator racing the first never replaces its file (``os.link`` refuses an
    existing name), so every process ends up with the same token.
    """
    path = config_dir / TOKEN_FILE_NAME
    token = _read(path)
    if token is not None:
        return token
    tmp_name: str | None = None
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f"{TOKEN_FILE_NAME}.", suffix=".tmp",
                                        dir=config_dir)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(tmp_name, path)
    except OSError as err:
        raise ConfigError(f"cannot create the page token {path}: {err.strerror or err}",
                          error_code="PAGE_TOKEN_UNAVAILABLE") from err
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    token = _read(path)
    if token is None:  # a file that is not ours sits there: say where
        raise ConfigError(f"the page token file {path} is unreadable or too short; delete it "
                          "and restart the web service", error_code="PAGE_TOKEN_UNAVAILABLE")
    return token


def matches(sent: str | None, token: str) -> bool:
    """Return whether ``sent`` is the token (compared in constant time)."""
    return sent is not None and hmac.compare_digest(sent.encode(), token.encode())


def _read(path: Path) -> str | None:
    # Non-blocking and regular files only: a FIFO in its place must not hang a request,
    # and a symlink must not make another file the token.
    try:
        text = read_regular(path, 256, follow_symlinks=False).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) >= _MIN_LENGTH else None
