"""Installed plugins, enable/disable, plugin config and schema."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from shared.config.prepare import prepare_plugin_config
from shared.config.save_rules import plan_enabled_save, plan_main_save
from shared.config.schema_form import form_to_section
from shared.config.secrets import mask_secrets, restore_masked, section_with_secrets
from shared.errors import ValidationError
from shared.ids import require_plain_segment
from web_service.api.requests import body_object, is_form
from web_service.api.safe_mode import safe_mode_records
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("plugins", __name__)


@bp.get("/plugins/installed")
def installed() -> Reply:
    """List installed plugins (manifest data, enabled flag, load and runtime problems).

    ``safe_mode`` is ``{reason, where, since}`` for a plugin the display keeps out.
    """
    svc = services()
    kept_out = safe_mode_records()
    return ok([{**record, "safe_mode": kept_out.get(record["id"])}
               for record in svc.catalog.installed(runtime_errors=svc.display.plugin_errors())])


@bp.post("/plugins/toggle")
def toggle() -> Reply:
    """Enable or disable a plugin.

    Only ``enabled`` is saved and no schema is consulted, so a plugin whose schema file
    is broken can always be switched off.
    """
    svc = services()
    body = body_object()
    plugin_id = require_plain_segment(body.get("plugin_id"))
    enabled = body.get("enabled")
    if isinstance(enabled, str) and enabled.lower() in ("true", "false", "on", "off", "1", "0"):
        enabled = enabled.lower() in ("true", "on", "1")
    if not isinstance(enabled, bool):
        raise ValidationError("enabled must be true or false", error_code="INVALID_FIELD",
                              details={"field": "enabled"})
    svc.catalog.record(plugin_id)

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        new_main, changed = plan_enabled_save(main, plugin_id, enabled)
        return new_main, secrets, changed

    svc.save_config(plan)
    state = "enabled" if enabled else "disabled"
    return ok({"plugin_id": plugin_id, "enabled": enabled}, f"{plugin_id} {state}")


@bp.get("/plugins/config")
def get_config() -> Reply:
    """Return a plugin's prepared config (legacy booleans normalised, defaults applied).

    Secrets that are set are shown as the mask, never as their value.
    """
    svc = services()
    plugin_id = require_plain_segment(request.args.get("plugin_id"))
    schema = svc.catalog.schema_for(plugin_id, missing_status=404)
    section = svc.store.load().get(plugin_id)
    prepared = prepare_plugin_config(section if isinstance(section, dict) else {}, schema)
    return ok(mask_secrets(prepared, schema, svc.store.load_secrets().get(plugin_id)))


@bp.post("/plugins/config")
def post_config() -> Reply:
    """Merge a partial plugin config onto the stored one, validate it, store it."""
    svc = services()
    body = body_object()
    plugin_id = require_plain_segment(body.get("plugin_id"))
    svc.catalog.record(plugin_id)
    if is_form():
        partial = form_to_section(body, svc.catalog.schema_for(plugin_id))
    elif isinstance(body.get("config"), dict):
        partial = body["config"]
    elif "config" in body:  # not a setting named "config": a wrapper of the wrong kind
        raise ValidationError("config must be an object of the plugin's settings, such as "
                              '{"enabled": true}', error_code="INVALID_FIELD",
                              details={"field": "config"})
    else:
        partial = {k: v for k, v in body.items() if k != "plugin_id"}

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        # A secret sent back as the mask (as GET showed it) keeps the stored one.
        stored = section_with_secrets(main, secrets, plugin_id)
        return plan_main_save(main, secrets, {plugin_id: restore_masked(partial, stored)},
                              form=False, schema_for=svc.catalog.schema_reader())

    svc.save_config(plan, pure=True)  # the plan copies only the section it changes
    return ok({"plugin_id": plugin_id}, f"{plugin_id} configuration saved")


@bp.get("/plugins/schema")
def get_schema() -> Reply:
    """Return a plugin's config schema (an empty object schema when it has none)."""
    svc = services()
    plugin_id = require_plain_segment(request.args.get("plugin_id"))
    schema = svc.catalog.schema_for(plugin_id, missing_status=404)
    return ok(schema or {"type": "object", "properties": {}})
