"""Which routes are limited, by group: the one table (numbers: ``web.rate_limits``).

Only routes that cost the device real work are here: downloads from the store or the
apps repository, archives unpacked, code run in a worker, a broker or git host asked.
What the web UI polls by itself (``NEVER_LIMITED``) must never be in the table: a test
holds the two apart.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    "starlark.create_app": "uploads",  # the same install as an upload, from JSON text
    "plugin_assets.upload": "uploads",
    "of_the_day.upload": "uploads",
    "backup.download": "backup",
    "backup.restore": "backup",
    "backup.pre_restore_download": "backup",
    "starlark.get_app": "renders",
    "plugin_actions.run": "renders",  # a plugin's script in a process of its own, up to 30 s
    "pages.starlark_form.app_config": "renders",
    "starlark_repository.install": "apps_repository",
    "starlark_repository.refresh": "apps_repository",
    "system_update.check": "checks",
    "mqtt.test_mqtt": "checks",
}

# Limited only with a query argument set (one of ``TRUE``): the store's list is searched
# as the user types (answered from the cache); only ``refresh`` fetches the registry.
ONLY_WITH: dict[str, str] = {"store.store_list": "refresh"}
TRUE = ("1", "true", "yes", "on")

# What pages ask for on a timer, hold open or ask for many at once: status, streams, job
# progress, previews (the Fonts tab draws one font preview per font).
NEVER_LIMITED: tuple[str, ...] = (
    "system.status", "health.health", "streams.stats", "streams.preview", "streams.logs",
    "display.preview", "store_jobs.listed", "store_jobs.one", "system_update.status",
    "starlark.status", "starlark_repository.browse", "logs.tail", "display_control.power",
    "errors.summary", "auth.status", "pages.index", "pages.partials.partial",
    "plugins.installed", "mqtt.get_mqtt", "fonts.font_preview", "fonts.catalog",
)


def group_of(endpoint: str | None, args: Mapping[str, str]) -> str | None:
    """Return the group of a request to ``endpoint`` with the query ``args``, or None
    when it is not limited."""
    group = ENDPOINT_GROUPS.get(endpoint or "")
    needed = ONLY_WITH.get(endpoint or "")
    if group is None or needed is None:
        return group
    return group if args.get(needed, "").strip().lower() in TRUE else None
