"""GET/POST /config/main and /config/raw/main."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request

from shared.config.save_rules import plan_main_save, plan_raw_save
from shared.errors import ValidationError
from web_service.api.requests import body_object, is_form
from web_service.envelope import ok
from web_service.services import services

bp = Blueprint("config", __name__)


@bp.get("/config/main")
def get_main():  # type: ignore[no-untyped-def]
    """Return the main config (secrets stay in their own file)."""
    return ok(services().store.load_main())


@bp.post("/config/main")
def post_main():  # type: ignore[no-untyped-def]
    """Save a partial config following the save rules; all or nothing."""
    svc = services()
    body = body_object()
    form = is_form() or "__form_section" in body
    changed: list[str] = []

    def change(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
        new_main, new_secrets, sections = plan_main_save(
            main, secrets, body, form=form, schema_for=svc.catalog.schema_for)
        changed.extend(sections)
        return new_main, new_secrets

    svc.store.update(change)
    if changed:
        svc.notify_config_changed(changed)
    return ok({"changed_sections": sorted(changed)}, "Configuration saved")


@bp.get("/config/raw/main")
def get_raw():  # type: ignore[no-untyped-def]
    """Return the main config file as text, for the config editor."""
    svc = services()
    path = svc.settings.paths.config_file
    return ok({"path": str(path), "content": path.read_text(encoding="utf-8")})


@bp.post("/config/raw/main")
def post_raw():  # type: ignore[no-untyped-def]
    """Replace the whole main config file (backed up first)."""
    svc = services()
    if request.mimetype == "application/json":
        replacement = request.get_json(silent=True)
        if replacement is None:
            raise ValidationError("request body is not valid JSON", error_code="INVALID_JSON")
    else:
        replacement = _parse_text(request.get_data(as_text=True))
    if not isinstance(replacement, dict):
        raise ValidationError("the config file must hold a JSON object",
                              error_code="INVALID_CONFIG")
    changed: list[str] = []

    def change(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
        new_main, sections = plan_raw_save(main, replacement, schema_for=svc.catalog.schema_for)
        changed.extend(sections)
        return new_main, secrets

    svc.store.update(change)
    if changed:
        svc.notify_config_changed(changed)
    return ok({"changed_sections": sorted(changed)}, "Configuration file replaced")


def _parse_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValidationError(
            f"config is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
            error_code="INVALID_JSON") from err
