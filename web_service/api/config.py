"""GET/POST /config/main and /config/raw/main."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request

from shared.config.hardware_rule import RESTART_MESSAGE
from shared.config.raw_save import plan_raw_save, split_raw_secrets
from shared.config.save_rules import changed_sections, plan_main_save
from shared.errors import ValidationError
from web_service.access import switch_on
from web_service.api.requests import body_object, check_body, is_form, json_body
from web_service.envelope import Reply, ok
from web_service.services import Saved, services
from web_service.store.auto_update import after_save

bp = Blueprint("config", __name__)
# Every route's body, not only config's: one check before any view (see requests).
bp.before_app_request(check_body)


@bp.get("/config/main")
def get_main() -> Response:
    """Return the main config (secrets stay in their own file).

    The answer is rendered once per change of config.json (checked on every request).
    """
    body = services().main_body(lambda main: ok(main)[0].get_data())
    return Response(body, status=200, mimetype="application/json")


@bp.post("/config/main")
def post_main() -> Reply:
    """Save a partial config following the save rules; all or nothing.

    ``data.warnings`` lists hardware problems that did not refuse the save (board
    guidance; every problem in emulator mode), each with its ``setting``.
    ``data.restart_required`` is true when the save changed a panel setting the display
    service reads only at start (listed in ``data.restart_settings``).
    """
    svc = services()
    body, password = switch_on.take_password(body_object())
    form = is_form() or "__form_section" in body
    warnings: list[dict[str, str]] = []

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        warnings.clear()
        return plan_main_save(main, secrets, body, form=form,
                              schema_for=svc.catalog.schema_reader(), warnings=warnings,
                              plugin_ids=svc.catalog.lazy_plugin_ids())

    # The plan copies only the sections it changes.
    saved = svc.save_config(plan, pure=True, switch_on=switch_on.step(request, password))
    return _saved(saved, warnings, "Configuration saved")


@bp.get("/config/raw/main")
def get_raw() -> Reply:
    """Return the main config file as text, for the config editor."""
    svc = services()
    return ok({"path": str(svc.settings.paths.config_file), "content": svc.store.read_text()})


@bp.post("/config/raw/main")
def post_raw() -> Reply:
    """Replace the whole main config file (backed up first).

    A config.json that cannot be used (does not parse, NaN, too deep) is replaced too,
    after it is kept as ``backups/config.json.bad.<stamp>``; the replacement is then
    checked whole.
    """
    svc = services()
    replacement = json_body()
    if not isinstance(replacement, dict):
        raise ValidationError("the config file must hold a JSON object",
                              error_code="INVALID_CONFIG")
    replacement, password = switch_on.take_password(replacement)

    warnings: list[dict[str, str]] = []

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        warnings.clear()
        plugin_ids = svc.catalog.lazy_plugin_ids()
        new_main, _ = plan_raw_save(main, replacement, schema_for=svc.catalog.schema_for,
                                    plugin_ids=plugin_ids, stored_secrets=secrets,
                                    warnings=warnings)
        new_main, new_secrets = split_raw_secrets(new_main, secrets, svc.catalog.schema_for,
                                                  plugin_ids)
        return new_main, new_secrets, changed_sections(main, new_main, secrets, new_secrets)

    # The editor is how a file that does not parse is repaired: it may replace one.
    saved = svc.save_config(plan, replace_unreadable=True,
                            switch_on=switch_on.step(request, password))
    return _saved(saved, warnings, "Configuration file replaced")


def _saved(saved: Saved, warnings: list[dict[str, str]], message: str) -> Reply:
    """Answer a save; panel settings that differ from the running display's ask for a
    restart of the display service (``restart_required``, ``restart_settings``). A save
    the display could not be told of on the bus is still a save (a ``bus`` warning).
    A save that changed ``auto_update`` re-arms its timer (save rule 5)."""
    after_save(saved.changed, saved.main)
    restart = services().display.restart_settings(saved.main)
    if saved.signal_problem:
        warnings = [*warnings, {"setting": "bus", "message": (
            f"the display was not signalled ({saved.signal_problem}); it reads the change "
            "from config.json")}]
    return ok({"changed_sections": saved.changed, "warnings": warnings,
               "restart_required": bool(restart), "restart_settings": restart},
              RESTART_MESSAGE if restart else message)
