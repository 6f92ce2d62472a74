"""The starlark routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BINARY,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    obj,
)

# Shared by the routes that docs/API.md says answer "as" another route.
INSTALL_ERRORS: dict[int, tuple[str, ...]] = {
    400: (
        "INVALID_PLUGIN_ID",
        "INVALID_APP",
        "INVALID_PATH",
        "NO_FILES",
        "INVALID_FIELD",
        "INVALID_PLUGIN_CONFIG",
    ),
    409: ("APP_EXISTS",),
    413: (
        "FILE_TOO_LARGE",
        "PAYLOAD_TOO_LARGE",
    ),
    500: ("INSTALL_FAILED",),
}
APP_SETTINGS_ERRORS: dict[int, tuple[str, ...]] = {
    400: (
        "INVALID_PLUGIN_ID",
        "INVALID_FIELD",
        "INVALID_JSON",
        "INVALID_PLUGIN_CONFIG",
    ),
    404: ("APP_NOT_FOUND",),
}
REPOSITORY_ERRORS: dict[int, tuple[str, ...]] = {
    400: (
        "INVALID_FIELD",
        "BAD_REPO_URL",
        "HOST_REFUSED",
    ),
    429: ("RATE_LIMITED",),
    502: ("DOWNLOAD_FAILED",),
}

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/starlark/status"): RouteDoc(
        data=obj(
            {
                "runtime": STRING,
                "renderer": STRING,
                "settings": ANY_OBJECT,
                "apps": array(ANY_OBJECT),
                "plugin_enabled": BOOLEAN,
                "installed_apps": INTEGER,
                "enabled_apps": INTEGER,
            },
            required=("runtime", "apps", "installed_apps", "enabled_apps"),
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/starlark/renderer/install"): RouteDoc(
        errors={400: ("INVALID_JSON",)}, body=ANY_OBJECT
    ),
    ("GET", "/api/v3/starlark/apps"): RouteDoc(data=array(ANY_OBJECT)),
    ("POST", "/api/v3/starlark/apps"): RouteDoc(
        errors=INSTALL_ERRORS,
        form=obj({"file": BINARY}),
        body=ANY_OBJECT,
        success=(200, 201),
    ),
    ("GET", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        errors={400: ("INVALID_PLUGIN_ID",), 404: ("APP_NOT_FOUND",)}
    ),
    ("PATCH", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        errors=APP_SETTINGS_ERRORS,
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        errors=APP_SETTINGS_ERRORS, body=ANY_OBJECT
    ),
    ("DELETE", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        errors={400: ("INVALID_PLUGIN_ID",), 404: ("APP_NOT_FOUND",)}
    ),
    ("GET", "/api/v3/starlark/apps/<app_id>/preview"): RouteDoc(
        errors={
            400: ("INVALID_PLUGIN_ID",),
            404: (
                "APP_NOT_FOUND",
                "NOT_RENDERED",
            ),
        },
        produces="image/webp",
    ),
    ("POST", "/api/v3/starlark/upload"): RouteDoc(
        errors=INSTALL_ERRORS, form=obj({"file": BINARY, "app_id": STRING}), success=(201,)
    ),
    ("GET", "/api/v3/starlark/repository"): RouteDoc(
        errors=REPOSITORY_ERRORS,
        query=(
            Param("q", STRING),
            Param("category", STRING),
            Param("page", INTEGER),
        ),
    ),
    ("POST", "/api/v3/starlark/repository/install"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_APP",
                "INVALID_FIELD",
                "HOST_REFUSED",
            ),
            404: ("APP_NOT_FOUND",),
            409: ("APP_EXISTS",),
            429: ("RATE_LIMITED",),
            502: ("DOWNLOAD_FAILED",),
        },
        body=ANY_OBJECT,
        success=(201,),
    ),
    ("POST", "/api/v3/starlark/repository/refresh"): RouteDoc(
        errors=REPOSITORY_ERRORS, body=ANY_OBJECT
    ),
}
