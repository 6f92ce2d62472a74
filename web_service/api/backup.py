"""Backup & Restore: download a backup ZIP, restore one (dry run first), and the kept
pre-restore backups.

The archive format and every check live in ``web_service.backup``; these views parse the
request, run the checks, and answer. A restore upload may be larger than the app's
request cap: ``POST /backup/restore`` alone accepts up to ``MAX_ARCHIVE_BYTES``
(``_raise_cap`` runs before every other request hook, so the page-token guard's form
parse already sees the raised limit).
"""

from __future__ import annotations

import logging
import tempfile
import time
from typing import Any

from flask import Blueprint, Response, request, send_file
from flask.sansio.blueprints import BlueprintSetupState

from shared.config.coerce import FALSE_WORDS, TRUE_WORDS
from shared.errors import ConfigFileInvalid, ValidationError
from shared.fonts.uploads import notify_display
from web_service.access import owner_proof
from web_service.backup.archive import write_archive
from web_service.backup.check import MAX_ARCHIVE_BYTES, check_archive
from web_service.backup.repack import copy_without_secrets
from web_service.backup.restore import (
    config_changes,
    config_plan,
    file_changes,
    keep_pre_restore,
    list_pre_restore,
    pre_restore_file,
    undo_files,
    write_files,
)
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.store.auto_update import after_save

logger = logging.getLogger(__name__)

bp = Blueprint("backup", __name__)
# Said in a header and in the archive's manifest (``note``) when secrets were held back.
NOTE_HEADER = "X-Ledpanel-Backup-Note"
SECRETS_WITHHELD = (
    "secrets not included: they are sent only to this panel's own pages in a browser, "
    "or with sign-in on to a signed-in browser or an admin API token; download from the "
    "Backup & Restore tab, or switch sign-in on and send an admin token")
RESTORE_ENDPOINT = "backup.restore"
# The multipart wrapping around the archive (boundaries, the dry_run and token fields).
_FORM_OVERHEAD = 64 * 1024


def _raise_cap() -> None:
    if request.endpoint == RESTORE_ENDPOINT:
        request.max_content_length = MAX_ARCHIVE_BYTES + _FORM_OVERHEAD


@bp.record_once
def _install_cap(state: BlueprintSetupState) -> None:
    state.app.before_request_funcs.setdefault(None, []).insert(0, _raise_cap)


@bp.get("/backup/download")
def download() -> Response:
    """Send a backup ZIP of the config, uploaded fonts and plugin uploads
    (``include_secrets=1``: the secrets file too, see ``_secrets_allowed``)."""
    include_secrets, note = _secrets_allowed(
        _flag(request.args.get("include_secrets"), "include_secrets"))
    svc = services()
    paths = svc.settings.paths
    try:  # a backup without a usable config.json could never be restored
        svc.store.main_snapshot()
    except ConfigFileInvalid as err:
        raise ConfigFileInvalid(
            f"no backup made: {err.message} Repair it in the Config Editor (or restore an "
            "earlier backup) first.", details=err.details) from err
    out = tempfile.TemporaryFile()
    try:
        write_archive(out, paths, include_secrets=include_secrets, note=note)
        out.seek(0)
    except BaseException:
        out.close()
        raise
    stamp = time.strftime("%Y%m%d-%H%M%S")
    response = send_file(out, mimetype="application/zip", as_attachment=True,
                         download_name=f"ledpanel-backup-{stamp}.zip")
    return _finish(response, note)


@bp.post("/backup/restore")
def restore() -> Reply:
    """Check a backup (multipart ``backup_file``) whole; with ``dry_run`` answer what it
    would change, else keep a pre-restore backup and restore it (config last)."""
    part = request.files.get("backup_file")
    if part is None:
        raise ValidationError("no backup in the upload (multipart field 'backup_file')",
                              error_code="NO_FILES", details={"field": "backup_file"})
    dry_run = _flag(request.form.get("dry_run"), "dry_run")
    svc = services()
    paths = svc.settings.paths
    checked = check_archive(part.stream)
    try:
        plan = config_plan(checked, schema_for=svc.catalog.schema_for,
                           plugin_ids=svc.catalog.lazy_plugin_ids())
        with svc.store.lock():  # nothing else saves between the checks and the writes
            try:
                main = svc.store.load_main()
            except ConfigFileInvalid:
                main = {}  # an unusable config.json is replaced, kept as a .bad copy
            config = config_changes(plan, main, svc.store.load_secrets())
            files = file_changes(paths, checked)
            answer: dict[str, Any] = {
                "dry_run": dry_run, "config": config,
                "fonts": files["fonts"].as_dict(),
                "plugin_assets": files["plugin_assets"].as_dict(),
                "notify_icons": files["notify_icons"].as_dict(),
                "backup": {k: checked.manifest.get(k) for k in
                           ("core_version", "created_at", "contents")},
                "pre_restore_backup": None}
            if dry_run:
                return ok(answer, "Checked: nothing was changed (dry run)")
            kept = keep_pre_restore(paths)
            answer["pre_restore_backup"] = kept.name
            undo = write_files(paths, checked, files)
            try:
                saved = svc.save_config(plan, replace_unreadable=True)
            except BaseException:
                undo_files(undo)
                raise
    finally:
        checked.archive.close()
    answer["config"]["changed_sections"] = saved.changed
    after_save(saved.changed, saved.main)
    fonts = files["fonts"]
    if fonts.added or fonts.replaced:
        families = ",".join(e.split("/")[-1].rsplit(".", 1)[0]
                            for e in (*fonts.added, *fonts.replaced))
        answer["fonts_display_told"] = notify_display(svc.bus, "restored", families) is None
    return ok(answer, f"Backup restored; what it replaced is kept as {kept.name}")


@bp.get("/backup/pre-restore")
def pre_restore_list() -> Reply:
    """List the kept pre-restore backups, newest first."""
    found = []
    for path in reversed(list_pre_restore(services().settings.paths)):
        try:
            info = path.stat()
        except OSError:
            continue
        found.append({"name": path.name, "size": info.st_size,
                      "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                  time.gmtime(info.st_mtime))})
    return ok({"backups": found})


@bp.get("/backup/pre-restore/<name>")
def pre_restore_download(name: str) -> Response:
    """Send one kept pre-restore backup ZIP (``include_secrets=1``: with the secrets file
    it holds; else a copy without it)."""
    include_secrets, note = _secrets_allowed(
        _flag(request.args.get("include_secrets"), "include_secrets"))
    path = pre_restore_file(services().settings.paths, name)
    if include_secrets:
        response = send_file(path, mimetype="application/zip", as_attachment=True,
                             download_name=name)
    else:
        out = tempfile.TemporaryFile()
        try:
            copy_without_secrets(path, out, note)
            out.seek(0)
        except BaseException:
            out.close()
            raise
        response = send_file(out, mimetype="application/zip", as_attachment=True,
                             download_name=name)
    return _finish(response, note)


def _secrets_allowed(asked: bool) -> tuple[bool, str | None]:
    """Return whether the secrets go out, and why not when they were asked for.

    Plain-text secrets leave the device only for this panel's own pages (the page token)
    or a signed-in browser or admin token: a client with neither, while sign-in is off,
    gets the backup without them and ``SECRETS_WITHHELD`` saying why.
    """
    if not asked or owner_proof.may_act_as_owner(request):
        return asked, None
    logger.warning("backup: secrets withheld from %s (no page token, not signed in)",
                   request.remote_addr)
    return False, SECRETS_WITHHELD


def _finish(response: Response, note: str | None) -> Response:
    response.headers["Cache-Control"] = "no-store"
    if note:
        response.headers[NOTE_HEADER] = note
    return response


def _flag(value: str | None, name: str) -> bool:
    if value is None or value == "":
        return False
    if value.lower() in TRUE_WORDS or value.lower() in FALSE_WORDS:
        return value.lower() in TRUE_WORDS
    raise ValidationError(f"{name} must be 1 or 0 (got {value[:40]!r})",
                          error_code="INVALID_FIELD", details={"field": name})
