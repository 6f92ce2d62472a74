"""The files routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from shared.logs.daemon_logs import DAEMONS
from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BINARY,
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    array,
    enum,
    nullable,
    obj,
    text,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/fonts/catalog"): RouteDoc(
        data=obj(
            {
                "fonts": array(
                    obj(
                        {
                            "family": STRING,
                            "file": STRING,
                            "kind": STRING,
                            "sizes": array(INTEGER),
                            "scalable": BOOLEAN,
                            "builtin": BOOLEAN,
                        },
                        required=("family", "builtin"),
                    )
                ),
                "max_upload_bytes": INTEGER,
            },
            required=("fonts",),
        ),
    ),
    ("GET", "/api/v3/fonts/preview"): RouteDoc(
        query=(
            Param("font", STRING, "a family from the catalog", required=True),
            Param(
                "size",
                {"type": "integer", "minimum": 4, "maximum": 128},
                "for a scalable font, 16 by default",
            ),
            Param("text", text(0, 100)),
        ),
        errors={
            400: (
                "INVALID_FONT_FAMILY",
                "INVALID_FIELD",
            ),
            404: ("FONT_NOT_FOUND",),
        },
        produces="image/png",
    ),
    ("POST", "/api/v3/fonts/upload"): RouteDoc(
        form=obj(
            {"font_file": BINARY, "font_family": text(1, 64)}, required=("font_file", "font_family")
        ),
        data=obj({"font": ANY_OBJECT, "display_told": BOOLEAN}, required=("font",)),
        errors={
            400: (
                "NO_FILES",
                "INVALID_FONT_FAMILY",
                "UNSUPPORTED_FONT_TYPE",
                "INVALID_FONT",
            ),
            409: ("FONT_FAMILY_TAKEN",),
            413: (
                "FILE_TOO_LARGE",
                "PAYLOAD_TOO_LARGE",
            ),
            500: ("WRITE_FAILED",),
        },
    ),
    ("DELETE", "/api/v3/fonts/<font_family>"): RouteDoc(
        data=obj(
            {"family": STRING, "file": STRING, "display_told": BOOLEAN}, required=("family", "file")
        ),
        errors={
            400: ("INVALID_FONT_FAMILY",),
            403: ("BUILTIN_FONT",),
            404: (
                "FONT_NOT_FOUND",
                "NOT_FOUND",
            ),
        },
    ),
    ("GET", "/api/v3/cache/list"): RouteDoc(
        data=obj(
            {
                "entries": array(ANY_OBJECT),
                "count": INTEGER,
                "total_bytes": INTEGER,
                "truncated": BOOLEAN,
            },
            required=("entries", "count", "total_bytes", "truncated"),
        )
    ),
    ("POST", "/api/v3/cache/clear"): RouteDoc(
        body=obj({"key": STRING, "file": STRING}),
        data=obj(
            {"cleared": array(ANYTHING), "count": INTEGER, "bytes": INTEGER},
            required=("cleared", "count"),
        ),
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_PATH",
                "INVALID_JSON",
            ),
            404: ("CACHE_KEY_NOT_FOUND",),
            500: ("WRITE_FAILED",),
        },
    ),
    ("GET", "/api/v3/history"): RouteDoc(
        query=(
            Param(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 1000},
                "1 to 1000, 100 by default",
            ),
            Param("before", INTEGER, "only entries older than this id"),
            Param("kind", enum("api", "plugin", "store", "core_update", "notify")),
            Param("plugin_id", STRING),
        ),
        data=obj(
            {
                "entries": array(
                    obj(
                        {
                            "id": INTEGER,
                            "at": NUMBER,
                            "source": STRING,
                            "kind": STRING,
                            "what": STRING,
                        },
                        required=("id", "at", "source", "kind"),
                    )
                )
            },
            required=("entries",),
        ),
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_PLUGIN_ID",
            )
        },
    ),
    ("POST", "/api/v3/history/clear"): RouteDoc(
        data=obj({"files_removed": INTEGER}, required=("files_removed",)),
        errors={500: ("WRITE_FAILED",)},
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/logs"): RouteDoc(
        query=(
            Param("daemon", enum(*DAEMONS, "all")),
            Param("level", STRING, "the least severe level shown (DEBUG by default)"),
            Param(
                "lines",
                {"type": "integer", "minimum": 1, "maximum": 1000},
                "1 to 1000, 200 by default",
            ),
        ),
        data=obj(
            {
                "entries": array(ANY_OBJECT),
                "sources": ANY_OBJECT,
                "level": STRING,
                "lines": INTEGER,
            },
            required=("entries", "sources", "level", "lines"),
        ),
        errors={400: ("INVALID_FIELD",), 503: ("LOGS_UNAVAILABLE",)},
    ),
    ("GET", "/api/v3/backup/download"): RouteDoc(
        errors={400: ("INVALID_FIELD",), 413: ("BACKUP_TOO_LARGE",)},
        query=(Param("include_secrets", enum("0", "1")),),
        produces="application/zip",
    ),
    ("POST", "/api/v3/backup/restore"): RouteDoc(
        data=obj(
            {
                "config": ANY_OBJECT,
                "fonts": ANY_OBJECT,
                "plugin_assets": ANY_OBJECT,
                "notify_icons": ANY_OBJECT,
                "backup": ANY_OBJECT,
                "pre_restore_backup": nullable(STRING),
            },
            required=("config", "backup", "pre_restore_backup"),
        ),
        form=obj({"backup_file": BINARY, "dry_run": enum("0", "1")}, required=("backup_file",)),
        errors={
            400: (
                "NO_FILES",
                "INVALID_FIELD",
                "INVALID_BACKUP",
                "INVALID_BACKUP_MANIFEST",
                "UNSAFE_BACKUP_ENTRY",
                "BACKUP_CHECKSUM_MISMATCH",
                "INVALID_CONFIG",
                "UNKNOWN_KEY",
                "OUT_OF_RANGE",
                "INVALID_PLUGIN_CONFIG",
                "HARDWARE_SETTING_REFUSED",
                "INVALID_FONT",
                "INVALID_FONT_FAMILY",
                "UNSUPPORTED_FONT_TYPE",
                "UNSUPPORTED_FILE_TYPE",
            ),
            409: ("FONT_FAMILY_TAKEN",),
            413: (
                "CONFIG_TOO_LARGE",
                "BACKUP_TOO_LARGE",
            ),
            500: ("WRITE_FAILED",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/backup/pre-restore"): RouteDoc(
        data=obj({"backups": array(ANY_OBJECT)}, required=("backups",))
    ),
    ("GET", "/api/v3/backup/pre-restore/<name>"): RouteDoc(
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_PATH",
            ),
            404: ("BACKUP_NOT_FOUND",),
            409: ("BACKUP_UNREADABLE",),
        },
        query=(Param("include_secrets", enum("0", "1")),),
        produces="application/zip",
    ),
}
