"""The auth routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BOOLEAN,
    NUMBER,
    STRING,
    array,
    enum,
    nullable,
    obj,
    text,
)

# Answers that carry no data.
NULL_DATA = nullable(ANY_OBJECT)

# A token as listed (never its hash).
TOKEN = obj(
    {"id": STRING, "name": STRING, "scope": enum("read", "control", "admin"), "created_at": NUMBER},
    required=("id", "name"),
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/auth/status"): RouteDoc(
        data=obj(
            {
                "enabled": BOOLEAN,
                "in_force": BOOLEAN,
                "password_set": BOOLEAN,
                "signed_in": BOOLEAN,
                "method": nullable(enum("session", "token")),
                "token_name": nullable(STRING),
                "expires_at": nullable(NUMBER),
            },
            required=("enabled", "in_force", "password_set", "signed_in"),
        ),
        example={
            "enabled": False,
            "in_force": False,
            "password_set": False,
            "signed_in": False,
            "method": None,
            "token_name": None,
            "expires_at": None,
        },
    ),
    ("POST", "/api/v3/auth/sign-in"): RouteDoc(
        data=obj({"expires_at": NUMBER}, required=("expires_at",)),
        body=obj({"password": text(1, 256)}, required=("password",)),
        body_required=True,
        errors={
            400: ("INVALID_FIELD",),
            401: ("WRONG_PASSWORD",),
            409: ("SIGN_IN_NO_PASSWORD",),
            429: ("RATE_LIMITED",),
        },
    ),
    ("POST", "/api/v3/auth/sign-out"): RouteDoc(data=nullable(ANY_OBJECT), body=ANY_OBJECT),
    ("POST", "/api/v3/auth/password"): RouteDoc(
        body=obj({"password": text(8, 256), "current_password": STRING}, required=("password",)),
        body_required=True,
        data=NULL_DATA,
        errors={
            400: ("INVALID_FIELD",),
            401: ("WRONG_PASSWORD",),
            403: ("FIRST_PASSWORD_REFUSED",),
            429: ("RATE_LIMITED",),
        },
    ),
    ("GET", "/api/v3/auth/tokens"): RouteDoc(
        data=obj({"tokens": array(TOKEN)}, required=("tokens",)),
    ),
    ("POST", "/api/v3/auth/tokens"): RouteDoc(
        body_example={"name": "home-assistant", "scope": "control"},
        body=obj(
            {"name": text(1, 64), "scope": enum("read", "control", "admin")},
            required=("name", "scope"),
        ),
        body_required=True,
        data=obj(
            {"id": STRING, "name": STRING, "scope": STRING, "token": STRING},
            required=("id", "name", "token"),
        ),
        errors={
            400: ("INVALID_FIELD",),
            403: (
                "ADMIN_REQUIRED",
                "TOKEN_SCOPE",
            ),
            409: (
                "TOKEN_NAME_TAKEN",
                "TOO_MANY_TOKENS",
            ),
        },
        success=(201,),
    ),
    ("DELETE", "/api/v3/auth/tokens/<token_id>"): RouteDoc(
        data=TOKEN, errors={404: ("UNKNOWN_TOKEN",)}
    ),
}
