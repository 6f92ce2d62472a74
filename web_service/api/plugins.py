"""Installed plugins, enable/disable, plugin config and schema."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from shared.config.prepare import prepare_plugin_config
from shared.config.save_rules import plan_main_save
from shared.config.schema_form import form_to_section
from shared.errors import ValidationError
from web_service.api.requests import body_object, is_form
from web_service.envelope import Reply, ok
from web_service.plugin_catalog import check_plugin_id
from web_service.services import services

bp = Blueprint("plugins", __name__)


@bp.get("/plugins/installed")
def installed() -> Reply:
    """List installed plugins (manifest data, enabled flag, load problems; no icon)."""
    return ok(services().catalog.installed())


@bp.post("/plugins/toggle")
def toggle() -> Reply:
    """Enable or disable a plugin."""
    body = body_object()
    plugin_id = check_plugin_id(body.get("plugin_id"))
    enabled = body.get("enabled")
    if isinstance(enabled, str) and enabled.lower() in ("true", "false", "on", "off", "1", "0"):
        enabled = enabled.lower() in ("true", "on", "1")
    if not isinstance(enabled, bool):
        raise ValidationError("enabled must be true or false", error_code="INVALID_FIELD")
    _save_section(plugin_id, {"enabled": enabled})
    state = "enabled" if enabled else "disabled"
    return ok({"plugin_id": plugin_id, "enabled": enabled}, f"{plugin_id} {state}")


@bp.get("/plugins/config")
def get_config() -> Reply:
    """Return a plugin's prepared config (legacy booleans normalised, defaults applied)."""
    svc = services()
    plugin_id = check_plugin_id(request.args.get("plugin_id"))
    svc.catalog.record(plugin_id, missing_status=404)
    section = svc.store.load().get(plugin_id)
    return ok(prepare_plugin_config(section if isinstance(section, dict) else {},
                                    svc.catalog.schema_for(plugin_id)))


@bp.post("/plugins/config")
def post_config() -> Reply:
    """Merge a partial plugin config onto the stored one, validate it, store it."""
    svc = services()
    body = body_object()
    plugin_id = check_plugin_id(body.get("plugin_id"))
    if is_form():
        partial = form_to_section(body, svc.catalog.schema_for(plugin_id))
    elif isinstance(body.get("config"), dict):
        partial = body["config"]
    else:
        partial = {k: v for k, v in body.items() if k != "plugin_id"}
    _save_section(plugin_id, partial)
    return ok({"plugin_id": plugin_id}, f"{plugin_id} configuration saved")


@bp.get("/plugins/schema")
def get_schema() -> Reply:
    """Return a plugin's config schema (an empty object schema when it has none)."""
    svc = services()
    plugin_id = check_plugin_id(request.args.get("plugin_id"))
    svc.catalog.record(plugin_id, missing_status=404)
    return ok(svc.catalog.schema_for(plugin_id) or {"type": "object", "properties": {}})


def _save_section(plugin_id: str, partial: dict[str, Any]) -> None:
    svc = services()
    svc.catalog.record(plugin_id)
    svc.save_config(lambda main, secrets: plan_main_save(
        main, secrets, {plugin_id: partial}, form=False, schema_for=svc.catalog.schema_for))
