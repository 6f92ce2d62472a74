"""The sign-in file ``<config dir>/sign_in.json``: mode 0600, never served by any route.

It holds the password's scrypt hash and the SHA-256 hashes of API tokens and browser
sessions, never a password, token or session id itself. It lives beside config.json,
not in it, so no config answer, backup or raw-editor read can carry it. Both the web
daemon and the ``ledpanel sign-in`` command change it: every change is read, changed
and replaced atomically under the config lock. Reads always go to disk, so a token
revoked from a shell is refused on the very next request.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.config.lock import config_lock
from shared.errors import (
    ConfigError,
    ConfigFileInvalid,
    LedpanelError,
    NotFoundError,
    ValidationError,
)
from shared.files.jsonfile import atomic_write_json, read_json_file
from shared.paths import Paths
from shared.sign_in import hashing

FILE_NAME = "sign_in.json"
FILE_MODE = 0o600
MAX_TOKENS = 50
MAX_SESSIONS = 100  # the oldest session is signed out when one more begins
TOKEN_NAME_MAX = 64
# What a token may do (``web_service.access.scopes`` enforces it): ``read`` only looks,
# ``control`` also drives the display, ``admin`` does everything a signed-in browser does.
SCOPES = ("read", "control", "admin")
# Tokens made before scopes existed carry none: they keep working as they always did.
LEGACY_SCOPE = "admin"

Data = dict[str, Any]


@dataclass(frozen=True)
class Identity:
    """Who a request was made by: a browser ``session`` or a named ``token``, and what it
    may do (a session may do everything: ``admin``)."""

    method: str
    name: str | None = None
    expires_at: float | None = None
    scope: str = "admin"


class CredentialStore:
    """Read and change the sign-in file of one install."""

    def __init__(self, paths: Paths, clock: Callable[[], float] = time.time) -> None:
        self.paths = paths
        self.clock = clock

    @property
    def path(self) -> Path:
        return self.paths.config_dir / FILE_NAME

    def exists(self) -> bool:
        """Return whether the sign-in file exists (a password or a token was ever set)."""
        try:
            os.stat(self.path)
        except FileNotFoundError:
            return False
        except OSError:
            return True  # there but unreadable: reading it will say why
        return True

    def read(self) -> Data:
        """Return the file's content; an absent file is an empty one."""
        try:
            data = read_json_file(self.path, "sign-in file")
        except ConfigError as err:
            if err.error_code == "FILE_NOT_FOUND":
                return _empty()
            raise
        if not isinstance(data, dict):
            raise ConfigFileInvalid(f"sign-in file {self.path} must hold a JSON object; "
                                    "delete it and set the password again",
                                    details={"file": str(self.path)})
        return {**_empty(), **data}

    def password_set(self) -> bool:
        """Return whether a password is stored."""
        return isinstance(self.read().get("password"), dict)

    def has_credentials(self) -> bool:
        """Return whether a password or at least one API token is stored."""
        data = self.read()
        return isinstance(data.get("password"), dict) or bool(_records(data, "tokens"))

    def verify_password(self, password: str) -> bool:
        """Return whether ``password`` is the stored one (constant time)."""
        stored = self.read().get("password")
        return hashing.verify_password(password, stored if isinstance(stored, dict) else None)

    def set_password(self, password: str) -> None:
        """Store a new password and sign every browser out (tokens stay valid)."""
        record = {**hashing.hash_password(hashing.check_new_password(password)),
                  "set_at": self.clock()}

        def change(data: Data) -> None:
            data["password"] = record
            data["sessions"] = []

        self._change(change)

    def tokens(self) -> list[dict[str, Any]]:
        """Return every token's ``id``, ``name``, ``scope`` and ``created_at`` (never its
        hash)."""
        return [_listing(t) for t in _records(self.read(), "tokens")]

    def create_token(self, name: Any, scope: Any) -> tuple[dict[str, Any], str]:
        """Make a token named ``name`` that may do ``scope``; return its listing and the
        token (shown once)."""
        name = _token_name(name)
        scope = _scope(scope)
        token = hashing.new_secret(hashing.TOKEN_PREFIX)
        record = {"id": secrets.token_hex(4), "name": name, "scope": scope,
                  "created_at": self.clock(), "sha256": hashing.digest(token)}

        def change(data: Data) -> None:
            tokens = _records(data, "tokens")
            if any(t.get("name") == name for t in tokens):
                raise LedpanelError(f"a token named {name!r} exists; revoke it or pick "
                                    "another name", error_code="TOKEN_NAME_TAKEN", status=409)
            if len(tokens) >= MAX_TOKENS:
                raise LedpanelError(f"at most {MAX_TOKENS} tokens; revoke one first",
                                    error_code="TOO_MANY_TOKENS", status=409)
            data["tokens"] = [*tokens, record]

        self._change(change)
        return _listing(record), token

    def revoke_token(self, token_id: str) -> dict[str, Any]:
        """Delete the token with ``token_id`` (or, failing that, that name); return it."""
        found: list[dict[str, Any]] = []

        def change(data: Data) -> None:
            tokens = _records(data, "tokens")
            match = ([t for t in tokens if t.get("id") == token_id]
                     or [t for t in tokens if t.get("name") == token_id])
            if not match:
                raise NotFoundError(f"no token has the id or name {token_id!r}",
                                    error_code="UNKNOWN_TOKEN")
            found.append(match[0])
            data["tokens"] = [t for t in tokens if t is not match[0]]

        self._change(change)
        return _listing(found[0])

    def token_identity(self, token: str) -> Identity | None:
        """Return who ``token`` belongs to, or None when no stored token matches."""
        for record in _records(self.read(), "tokens"):
            if hashing.same_digest(token, str(record.get("sha256", ""))):
                return Identity("token", name=record.get("name"), scope=token_scope(record))
        return None

    def begin_session(self, lifetime: float) -> tuple[str, float]:
        """Start a browser session; return its id (for the cookie) and expiry time."""
        session_id = hashing.new_secret()
        now = self.clock()
        expires_at = now + lifetime
        record = {"sha256": hashing.digest(session_id), "created_at": now,
                  "expires_at": expires_at}

        def change(data: Data) -> None:
            data["sessions"] = [*_records(data, "sessions"), record][-MAX_SESSIONS:]

        self._change(change)
        return session_id, expires_at

    def session_identity(self, session_id: str) -> Identity | None:
        """Return the session ``session_id`` names while it has not expired, else None."""
        now = self.clock()
        for record in _records(self.read(), "sessions"):
            if hashing.same_digest(session_id, str(record.get("sha256", ""))):
                expires = record.get("expires_at")
                if isinstance(expires, int | float) and expires > now:
                    return Identity("session", expires_at=float(expires))
        return None

    def end_session(self, session_id: str) -> None:
        """Forget the session ``session_id`` (signing out); unknown ids are ignored."""
        def change(data: Data) -> None:
            data["sessions"] = [s for s in _records(data, "sessions")
                                if not hashing.same_digest(session_id, str(s.get("sha256", "")))]

        self._change(change)

    def _change(self, fn: Callable[[Data], None]) -> None:
        with config_lock(self.paths):
            data = self.read()
            fn(data)
            now = self.clock()
            data["sessions"] = [s for s in _records(data, "sessions")
                                if isinstance(s.get("expires_at"), int | float)
                                and s["expires_at"] > now]
            atomic_write_json(self.path, data, FILE_MODE)
            _give_to_config_owner(self.path)


def _empty() -> Data:
    return {"password": None, "tokens": [], "sessions": []}


def _records(data: Data, key: str) -> list[dict[str, Any]]:
    items = data.get(key)
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def token_scope(record: dict[str, Any]) -> str:
    """Return a stored token's scope: ``LEGACY_SCOPE`` when it has none (made before
    scopes), ``read`` when it holds one we do not know (a hand edit: the least)."""
    scope = record.get("scope", LEGACY_SCOPE)
    return scope if scope in SCOPES else "read"


def _listing(record: dict[str, Any]) -> dict[str, Any]:
    return {"id": record.get("id"), "name": record.get("name"), "scope": token_scope(record),
            "created_at": record.get("created_at")}


def _scope(scope: Any) -> str:
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {', '.join(SCOPES)}",
                              error_code="INVALID_FIELD", details={"field": "scope"})
    return str(scope)


def _token_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValidationError("name must be a non-empty string", error_code="INVALID_FIELD",
                              details={"field": "name"})
    name = name.strip()
    if len(name) > TOKEN_NAME_MAX or not name.isprintable():
        raise ValidationError(f"name must be at most {TOKEN_NAME_MAX} printable characters",
                              error_code="INVALID_FIELD", details={"field": "name"})
    return name


def _give_to_config_owner(path: Path) -> None:
    # ``sudo ledpanel sign-in ...`` runs as root, but the web daemon that reads the file
    # runs as the user owning the config directory.
    if os.geteuid() != 0:
        return
    with contextlib.suppress(OSError):
        owner = path.parent.stat()
        os.chown(path, owner.st_uid, owner.st_gid)
