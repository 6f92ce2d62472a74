"""Which routes are limited, by group: the one table (numbers: ``web.rate_limits``).

Only routes that cost the device real work are here: downloads from the store or the
apps repository, archives unpacked, code run in a worker, a broker or git host asked.
What the web UI polls by itself (``NEVER_LIMITED``) must never be in the table: a test
holds the two apart.
"""

from __future__ import annotations

# Flask endpoint -> group (a key of ``shared.config.rate_limits.DEFAULT_PER_MINUTE``).
ENDPOINT_GROUPS: dict[str, str] = {
    "store_ops.install": "store",
    "store_ops.update": "store",
    "store_ops.uninstall": "store",
    "store.store_list": "store",
    "store.github_status": "store",
    "store_ops.install_upload": "uploads",
    "fonts.upload": "uploads",
    "starlark.upload": "uploads",
    "backup.download": "backup",
    "backup.restore": "backup",
    "backup.pre_restore_download": "backup",
    "starlark.get_app": "renders",
    "pages.starlark_form.app_config": "renders",
    "fonts.font_preview": "renders",
    "starlark_repository.install": "apps_repository",
    "starlark_repository.refresh": "apps_repository",
    "system_update.check": "checks",
    "mqtt.test_mqtt": "checks",
}

# What pages ask for on a timer or hold open: status, streams, job progress, previews.
NEVER_LIMITED: tuple[str, ...] = (
    "system.status", "health.health", "streams.stats", "streams.preview", "streams.logs",
    "display.preview", "store_jobs.listed", "store_jobs.one", "system_update.status",
    "starlark.status", "starlark_repository.browse", "logs.tail", "display_control.power",
    "errors.summary", "auth.status", "pages.index", "pages.partials.partial",
    "plugins.installed", "mqtt.get_mqtt",
)


def group_of(endpoint: str | None) -> str | None:
    """Return the group of the route ``endpoint``, or None when it is not limited."""
    return ENDPOINT_GROUPS.get(endpoint or "")
