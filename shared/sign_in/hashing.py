"""Password and token hashing: stdlib only, compared in constant time.

Passwords are hashed with scrypt and a random salt per password; the parameters are
stored beside the hash so they can be raised later without breaking stored passwords.
Tokens and session ids are 256 random bits, so one SHA-256 is enough to store them:
nothing can be guessed from the hash that could not be guessed from nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from shared.errors import ValidationError

# scrypt cost: 16 MiB and about 0.1 s on a Raspberry Pi 4 per attempt.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_MAXMEM = 64 * 1024 * 1024
HASH_BYTES = 32
PASSWORD_MIN, PASSWORD_MAX = 8, 256
TOKEN_PREFIX = "lpt_"


def check_new_password(password: Any) -> str:
    """Return ``password`` if it may be set, else raise ValidationError saying why."""
    if not isinstance(password, str):
        raise ValidationError("password must be a string", error_code="INVALID_FIELD",
                              details={"field": "password"})
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValidationError(
            f"password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters long "
            f"(got {len(password)})", error_code="INVALID_FIELD", details={"field": "password"})
    return password


def hash_password(password: str) -> dict[str, Any]:
    """Return the stored form of ``password``: scheme, parameters, salt and hash."""
    salt = secrets.token_bytes(16)
    return {"scheme": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
            "salt": salt.hex(), "hash": _scrypt(password, salt, SCRYPT_N, SCRYPT_R,
                                                SCRYPT_P).hex()}


def verify_password(password: str, stored: dict[str, Any] | None) -> bool:
    """Return whether ``password`` matches ``stored`` (False when nothing is stored)."""
    if not isinstance(password, str) or len(password) > PASSWORD_MAX:
        return False
    try:
        salt = bytes.fromhex(stored["salt"]) if stored else secrets.token_bytes(16)
        expected = bytes.fromhex(stored["hash"]) if stored else b""
        n, r, p = (int(stored[k]) for k in "nrp") if stored else (SCRYPT_N, SCRYPT_R, SCRYPT_P)
        # With nothing stored the hash is still computed, so the answer takes as long.
        actual = _scrypt(password, salt, n, r, p)
    except (KeyError, TypeError, ValueError):  # a hand-edited record: no match
        return False
    return bool(expected) and hmac.compare_digest(actual, expected)


def new_secret(prefix: str = "") -> str:
    """Return a new random secret (256 bits, URL-safe text)."""
    return prefix + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """Return the stored form of a token or session id (SHA-256, hex)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_digest(secret: str, stored: str) -> bool:
    """Return whether ``secret`` hashes to ``stored``, in constant time."""
    return hmac.compare_digest(digest(secret), stored)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt, n=n, r=r, p=p,
                          maxmem=SCRYPT_MAXMEM, dklen=HASH_BYTES)
