"""The starlark routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BINARY,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    nullable,
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

# An uploaded app package, with the optional id and replace fields.
UPLOAD = obj({"file": BINARY, "app_id": STRING, "replace": STRING}, required=("file",))
# A change of an app's entry, and the entry as saved.
APP_ENTRY = obj(
    {
        "enabled": BOOLEAN,
        "duration": {"type": "integer", "minimum": 5, "maximum": 3600},
        "config": {"type": "object", "additionalProperties": nullable(STRING)},
    }
)
APP_ENTRY_ANSWER = obj({"app_id": STRING, "entry": ANY_OBJECT}, required=("app_id", "entry"))

# An installed app as the routes answer it (what its folder says, its entry, its render).
APP = obj(
    {
        "id": STRING,
        "name": STRING,
        "source": STRING,
        "enabled": BOOLEAN,
        "duration": INTEGER,
        "revision": ANYTHING,
        "mode": STRING,
        "preview_url": nullable(STRING),
    },
    required=("id", "enabled", "duration", "mode", "preview_url"),
)
# One page of the apps repository.
REPOSITORY_PAGE = obj(
    {
        "repository": STRING,
        "branch": STRING,
        "apps": array(ANY_OBJECT),
        "total": INTEGER,
        "page": INTEGER,
        "pages": INTEGER,
        "categories": array(STRING),
        "warning": nullable(STRING),
    },
    required=("apps", "total", "page", "pages"),
)

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
        data=obj(
            {"renderer": STRING, "runtime": STRING, "installed": BOOLEAN},
            required=("renderer", "installed"),
        ),
        errors={400: ("INVALID_JSON",)},
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/starlark/apps"): RouteDoc(
        data=array(APP),
    ),
    ("POST", "/api/v3/starlark/apps"): RouteDoc(
        data=APP,
        body=obj({"app_id": STRING, "source": STRING, "filename": STRING, "replace": BOOLEAN}),
        form=UPLOAD,
        errors=INSTALL_ERRORS,
        success=(200, 201),
    ),
    ("GET", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        data=obj({"app": APP, "entry": ANY_OBJECT, "schema": ANYTHING}, required=("app", "entry")),
        errors={400: ("INVALID_PLUGIN_ID",), 404: ("APP_NOT_FOUND",)},
    ),
    ("PATCH", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        body=APP_ENTRY, data=APP_ENTRY_ANSWER, errors=APP_SETTINGS_ERRORS
    ),
    ("POST", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        body=APP_ENTRY, data=APP_ENTRY_ANSWER, errors=APP_SETTINGS_ERRORS
    ),
    ("DELETE", "/api/v3/starlark/apps/<app_id>"): RouteDoc(
        data=obj({"app_id": STRING}, required=("app_id",)),
        errors={400: ("INVALID_PLUGIN_ID",), 404: ("APP_NOT_FOUND",)},
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
        data=APP, form=UPLOAD, errors=INSTALL_ERRORS, success=(201,)
    ),
    ("GET", "/api/v3/starlark/repository"): RouteDoc(
        data=REPOSITORY_PAGE,
        errors=REPOSITORY_ERRORS,
        query=(
            Param("q", STRING),
            Param("category", STRING),
            Param("page", INTEGER),
        ),
    ),
    ("POST", "/api/v3/starlark/repository/install"): RouteDoc(
        data=APP,
        body=obj({"app_id": STRING, "replace": BOOLEAN}, required=("app_id",)),
        body_required=True,
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
        success=(201,),
    ),
    ("POST", "/api/v3/starlark/repository/refresh"): RouteDoc(
        data=REPOSITORY_PAGE, body=None, errors=REPOSITORY_ERRORS
    ),
}
