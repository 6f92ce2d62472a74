"""The plugins routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

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
    described,
    nullable,
    obj,
)

PLUGIN_ID = obj({"plugin_id": STRING}, required=("plugin_id",))
# An of-the-day data file named in a body or the query string.
DATA_FILE = obj({"filename": STRING, "name": STRING, "file_id": STRING, "plugin_id": STRING})
DATA_FILE_QUERY = tuple(
    Param(name, STRING) for name in ("filename", "name", "file_id", "plugin_id")
)

# What a data file's removal answers.
DATA_FILE_DELETED = obj(
    {"plugin_id": STRING, "deleted": ANYTHING}, required=("plugin_id", "deleted")
)

# Deleting an of-the-day data file, by POST (forms) or DELETE: the same answers.
DATA_FILE_DELETE_ERRORS: dict[int, tuple[str, ...]] = {
    400: ("MISSING_PLUGIN_ID", "INVALID_PLUGIN_ID", "INVALID_PATH", "UNSUPPORTED_FILE_TYPE",
          "INVALID_JSON", "INVALID_FORM", "INVALID_PLUGIN_CONFIG"),
    404: ("UNKNOWN_PLUGIN", "UNKNOWN_DATA_FILE"),
    409: ("CONFIG_INVALID_JSON",), 413: ("FILE_TOO_LARGE",), 422: ("INVALID_PLUGIN_SCHEMA",),
    503: ("CONFIG_LOCKED",),
}

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/errors/summary"): RouteDoc(
        data=obj(
            {
                "service": STRING,
                "total_failures": INTEGER,
                "plugins_failing": INTEGER,
                "resting": array(ANYTHING),
                "plugins": ANY_OBJECT,
            },
            required=("service", "total_failures", "plugins_failing", "plugins"),
        )
    ),
    ("GET", "/api/v3/errors/plugin/<path:plugin_id>"): RouteDoc(
        data=obj(
            {"plugin_id": STRING, "service": STRING, "count": INTEGER, "breaker": ANY_OBJECT},
            required=("plugin_id", "count"),
        ),
        errors={400: ("INVALID_PLUGIN_ID",)},
    ),
    ("POST", "/api/v3/errors/clear"): RouteDoc(
        body=obj({"plugin_id": STRING}),
        data=obj({"plugin_id": nullable(STRING), "cleared": BOOLEAN}, required=("cleared",)),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_JSON",
            )
        },
        success=(200, 202),
    ),
    ("GET", "/api/v3/plugins/installed"): RouteDoc(
        data=array(
            obj(
                {
                    "id": STRING,
                    "name": STRING,
                    "version": STRING,
                    "enabled": BOOLEAN,
                    "display_modes": array(STRING),
                },
                required=("id", "enabled"),
            )
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/plugins/toggle"): RouteDoc(
        data=obj({"plugin_id": STRING, "enabled": BOOLEAN}, required=("plugin_id", "enabled")),
        body_example={"plugin_id": "clock", "enabled": True},
        body=obj({"plugin_id": STRING, "enabled": BOOLEAN}, required=("plugin_id",)),
        body_required=True,
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/plugins/config"): RouteDoc(
        data=described(ANY_OBJECT, "the plugin's section, secrets shown as ********"),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("CONFIG_INVALID_JSON",),
            422: ("INVALID_PLUGIN_SCHEMA",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/plugins/config"): RouteDoc(
        data=PLUGIN_ID,
        body=obj({"plugin_id": STRING, "config": ANY_OBJECT}, required=("plugin_id",)),
        body_required=True,
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PLUGIN_CONFIG",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: ("CONFIG_INVALID_JSON",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/plugins/schema"): RouteDoc(
        data=described(
            ANY_OBJECT, "the plugin's JSON Schema (an empty object schema when it has none)"
        ),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("UNKNOWN_PLUGIN",),
            422: ("INVALID_PLUGIN_SCHEMA",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("GET", "/api/v3/plugins/safe-mode"): RouteDoc(
        data=array(obj({"plugin_id": STRING}, required=("plugin_id",))),
    ),
    ("POST", "/api/v3/plugins/safe-mode/release"): RouteDoc(
        body=PLUGIN_ID,
        body_required=True,
        data=obj({"plugin_id": STRING, "released": BOOLEAN}, required=("plugin_id", "released")),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("NOT_IN_SAFE_MODE",),
        },
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/action"): RouteDoc(
        data=described(ANYTHING, "the one JSON object the action's script printed"),
        body=obj(
            {"plugin_id": STRING, "action_id": STRING, "params": ANY_OBJECT},
            required=("plugin_id", "action_id"),
        ),
        body_required=True,
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "UNKNOWN_ACTION",
                "INVALID_PATH",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            422: ("INVALID_MANIFEST",),
            429: ("ACTION_BUSY",),
            502: ("ACTION_FAILED",),
            504: ("ACTION_TIMEOUT",),
        },
    ),
    ("POST", "/api/v3/plugins/assets/upload"): RouteDoc(
        data=obj(
            {"plugin_id": STRING, "files": array(ANY_OBJECT)}, required=("plugin_id", "files")
        ),
        form=obj({"plugin_id": STRING, "files": BINARY}, required=("plugin_id", "files")),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "NO_FILES",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_PATH",
            ),
            413: ("FILE_TOO_LARGE",),
        },
    ),
    ("GET", "/api/v3/plugins/assets/list"): RouteDoc(
        data=obj(
            {"plugin_id": STRING, "files": array(ANY_OBJECT)}, required=("plugin_id", "files")
        ),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PATH",
            )
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/plugins/assets/delete"): RouteDoc(
        data=obj({"plugin_id": STRING, "deleted": ANY_OBJECT}, required=("plugin_id", "deleted")),
        body=obj({"plugin_id": STRING, "path": STRING, "name": STRING}, required=("plugin_id",)),
        body_required=True,
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PATH",
                "INVALID_JSON",
            ),
            404: ("UNKNOWN_ASSET",),
        },
    ),
    ("GET", "/api/v3/plugins/<plugin_id>/static/<path:subpath>"): RouteDoc(
        errors={
            400: (
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
            ),
            404: (
                "UNKNOWN_PLUGIN",
                "NOT_FOUND",
            ),
            413: ("FILE_TOO_LARGE",),
        },
        produces="application/octet-stream",
    ),
    ("GET", "/api/v3/calendar/list-calendars"): RouteDoc(
        data=obj(
            {"plugin_id": STRING, "calendars": array(ANYTHING)}, required=("plugin_id", "calendars")
        ),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("NO_CALENDAR_LIST",),
            429: ("ACTION_BUSY",),
            502: ("ACTION_FAILED",),
            504: ("ACTION_TIMEOUT",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/of-the-day/json/upload"): RouteDoc(
        data=obj({"plugin_id": STRING, "files": array(ANYTHING)}, required=("plugin_id", "files")),
        form=obj({"file": BINARY, "plugin_id": STRING}, required=("file",)),
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "NO_FILES",
                "INVALID_PATH",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_DATA_FILE",
                "INVALID_FORM",
                "INVALID_FIELD",
                "INVALID_PLUGIN_CONFIG",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("CONFIG_INVALID_JSON",),
            413: (
                "FILE_TOO_LARGE",
                "CONFIG_TOO_LARGE",
            ),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("POST", "/api/v3/of-the-day/json/delete"): RouteDoc(
        data=DATA_FILE_DELETED,
        body=DATA_FILE,
        query=DATA_FILE_QUERY,
        errors=DATA_FILE_DELETE_ERRORS,
    ),
    ("DELETE", "/api/v3/of-the-day/json/delete"): RouteDoc(
        data=DATA_FILE_DELETED,
        query=DATA_FILE_QUERY,
        errors=DATA_FILE_DELETE_ERRORS,
    ),
}
