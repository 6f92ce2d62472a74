"""The web UI's tabs: one registry, and the server-rendered partial behind each tab.

Adding a tab is one ``Tab`` line in ``TABS`` plus ``templates/partials/<name>.html``
(names use ``_`` where the URL has ``-``). The base page draws the tab bar from
``tab_bar()``; the browser loads ``/v3/partials/<name>`` the first time a tab opens.
A partial answers a friendly HTML fragment on every failure: 404 for an unknown name,
500 (traceback logged here, never sent) when its rendering raises.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.exceptions import HTTPException

from shared.errors import LedpanelError
from shared.ids import is_plain_segment
from shared.plugin_system.records import DEFAULT_ICON
from shared.version import CORE_VERSION
from web_service.services import services
from web_service.ui.plugin_form_context import plugin_form_context
from web_service.ui.settings_forms import SETTINGS_TABS, settings_context
from web_service.ui.sign_in_card import access_context
from web_service.ui.tool_partials import tool_context

logger = logging.getLogger(__name__)

bp = Blueprint("partials", __name__)
PREFIX = "/v3/partials"


@dataclass(frozen=True)
class Tab:
    """One tab: its URL name, its label, and where it stands in the bar."""

    name: str
    title: str

    @property
    def template(self) -> str:
        return f"partials/{self.name.replace('-', '_')}.html"

    @property
    def url(self) -> str:
        return f"{PREFIX}/{self.name}"


# The bar's order; the installed plugins' tabs go after PLUGIN_TABS_AFTER.
TABS: tuple[Tab, ...] = (
    Tab("overview", "Overview"),
    Tab("general", "General"),
    Tab("display", "Display"),
    Tab("durations", "Durations & Rotation"),
    Tab("schedule", "Schedule"),
    Tab("vegas", "Vegas"),
    Tab("mqtt", "MQTT"),
    Tab("plugin-manager", "Plugin Manager"),
    Tab("starlark", "Scripted apps"),
    Tab("plugin-store", "Plugin Store"),
    Tab("fonts", "Fonts"),
    Tab("logs", "Logs"),
    Tab("cache", "Cache"),
    Tab("history", "Operation History"),
    Tab("config-editor", "Config Editor"),
    Tab("backup", "Backup & Restore"),
    Tab("wifi", "WiFi"),
)
PLUGIN_TABS_AFTER = "plugin-store"
_BY_NAME = {tab.name: tab for tab in TABS}


@dataclass(frozen=True)
class BarEntry:
    """A tab as the base page draws it (plugin tabs included)."""

    key: str  # the panel's element id suffix and the URL hash
    title: str
    url: str
    plugin_id: str | None = None
    icon: str = ""  # a plugin tab's icon-font class names


def tab_bar(plugins: list[dict[str, Any]], icons: dict[str, str] | None = None
            ) -> list[BarEntry]:
    """Return the tab bar: the fixed tabs with one tab per installed plugin."""
    bar: list[BarEntry] = []
    for tab in TABS:
        bar.append(BarEntry(tab.name, tab.title, tab.url))
        if tab.name == PLUGIN_TABS_AFTER:
            bar.extend(BarEntry(f"plugin-{p['id']}", str(p.get("name") or p["id"]),
                                f"{PREFIX}/plugin/{p['id']}", p["id"],
                                (icons or {}).get(p["id"], DEFAULT_ICON))
                       for p in plugins if is_plain_segment(p.get("id")))
    return bar


def installed_plugins() -> list[dict[str, Any]]:
    """Return the installed plugin records (as GET /plugins/installed lists them)."""
    svc = services()
    return svc.catalog.installed(runtime_errors=svc.display.plugin_errors())


@bp.get(f"{PREFIX}/<name>")
def partial(name: str) -> tuple[str, int]:
    """Render one fixed tab's body."""
    tab = _BY_NAME.get(name)
    if tab is None:
        return _not_found(f"There is no tab named {name!r}.")
    return _render(tab.template, version=CORE_VERSION, **_settings_context(name),
                   **tool_context(name), **access_context(name), **_manager_context(name))


@bp.get(f"{PREFIX}/plugin/<path:plugin_id>")
def plugin_tab(plugin_id: str) -> tuple[str, int]:
    """Render one installed plugin's tab."""
    record = _plugin_record(plugin_id)
    if record is None:
        return _not_found(f"No plugin {plugin_id!r} is installed.")
    icon = services().catalog.icons().get(plugin_id, DEFAULT_ICON)
    return _render("partials/plugin.html", plugin=record, icon=icon)


@bp.get(f"{PREFIX}/plugin-config/<path:plugin_id>")
def plugin_config(plugin_id: str) -> tuple[str, int]:
    """Render a plugin's settings form from its schema and prepared config."""
    if _plugin_record(plugin_id) is None:
        return _not_found(f"No plugin {plugin_id!r} is installed.")
    return _render("partials/plugin_config.html", **plugin_form_context(plugin_id))


@bp.get(f"{PREFIX}/<path:rest>")
def unknown(rest: str) -> tuple[str, int]:
    """Answer any other partial path with the friendly 404 fragment."""
    return _not_found("There is no such tab.")


def _plugin_record(plugin_id: str) -> dict[str, Any] | None:
    if not is_plain_segment(plugin_id):
        return None
    for record in installed_plugins():
        if record["id"] == plugin_id:
            return record
    return None


def _manager_context(name: str) -> dict[str, Any]:
    """The Plugin Manager's icons (the listing it draws from leaves them out); {} elsewhere."""
    if name != "plugin-manager":
        return {}
    return {"icons": services().catalog.icons(), "default_icon": DEFAULT_ICON}


def _settings_context(name: str) -> dict[str, Any]:
    """The stored values a settings tab shows (General, Display, ...); {} for other tabs."""
    if name not in SETTINGS_TABS:
        return {}
    port = str(request.environ.get("SERVER_PORT", ""))
    return settings_context(name, services().store.main_snapshot().data, installed_plugins,
                            listening=int(port) if port.isdigit() else None)


def _render(template: str, **context: Any) -> tuple[str, int]:
    return render_template(template, **context), 200


@bp.errorhandler(Exception)
def _failed(err: Exception) -> tuple[str, int]:
    # One tab's failure must not become a traceback or a JSON body: log it, answer a fragment.
    if isinstance(err, LedpanelError):
        logger.warning("partial %s: %s", request.path, err.message)
        return render_template("partials/_failed.html", message=err.message), err.status
    if isinstance(err, HTTPException):
        return render_template("partials/_failed.html", message=err.description), err.code or 500
    logger.exception("partial %s failed to render", request.path)
    return render_template("partials/_failed.html", message=None), 500


def _not_found(message: str) -> tuple[str, int]:
    return render_template("partials/_not_found.html", message=message), 404
