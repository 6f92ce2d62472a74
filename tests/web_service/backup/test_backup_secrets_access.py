"""Plain-text secrets leave the device only for the owner's pages or a signed-in admin:
a backup asked for with its secrets by any other client comes without them, and says
why (a header and the manifest's ``note``). Real daemon, real HTTP."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
import requests

from tests.web_service.sign_in_helpers import (
    TIMEOUT,
    ledpanel,
    page_token,
    running_web,
    signed_in,
    switch_on,
)

pytestmark = pytest.mark.timeout(120)
SECRETS = "config/config_secrets.json"
NOTE = "X-Ledpanel-Backup-Note"


def _archive(answer: requests.Response) -> zipfile.ZipFile:
    assert answer.status_code == 200, answer.text[:300]
    return zipfile.ZipFile(io.BytesIO(answer.content))


def _manifest(archive: zipfile.ZipFile) -> dict:
    return json.loads(archive.read("ledpanel-backup.json"))


def _withheld(answer: requests.Response) -> None:
    archive = _archive(answer)
    assert SECRETS not in archive.namelist()
    assert "secrets not included" in answer.headers[NOTE]
    manifest = _manifest(archive)
    assert manifest["contents"]["secrets"] is False
    assert manifest["note"] == answer.headers[NOTE]


def _given(answer: requests.Response) -> None:
    archive = _archive(answer)
    assert SECRETS in archive.namelist()
    assert NOTE not in answer.headers and "note" not in _manifest(archive)


def test_with_sign_in_off_only_the_owners_page_gets_the_secrets(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        (instance.config_dir / "config_secrets.json").write_text(
            json.dumps({"clock": {"api_key": "s3cret"}}))
        download = f"{url}/api/v3/backup/download?include_secrets=1"
        curl = requests.get(download, timeout=TIMEOUT)
        _withheld(curl)
        assert b"s3cret" not in curl.content
        _given(requests.get(download, headers={"X-Ledpanel-Token": page_token(url)},
                            timeout=TIMEOUT))
        # A backup that went out without its secrets still restores (the note is ignored).
        checked = requests.post(f"{url}/api/v3/backup/restore", timeout=TIMEOUT,
                                data={"dry_run": "1"},
                                files={"backup_file": ("b.zip", curl.content)})
        assert checked.status_code == 200, checked.text
        # The kept pre-restore backups follow the same rule.
        done = requests.post(f"{url}/api/v3/backup/restore", timeout=TIMEOUT,
                             files={"backup_file": ("b.zip", curl.content)})
        kept = done.json()["data"]["pre_restore_backup"]
        kept_url = f"{url}/api/v3/backup/pre-restore/{kept}?include_secrets=1"
        _withheld(requests.get(kept_url, timeout=TIMEOUT))
        _given(requests.get(kept_url, headers={"X-Ledpanel-Token": page_token(url)},
                            timeout=TIMEOUT))


def test_with_sign_in_on_a_session_or_admin_token_gets_the_secrets(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        (instance.config_dir / "config_secrets.json").write_text(
            json.dumps({"clock": {"api_key": "s3cret"}}))
        switch_on(url)
        download = f"{url}/api/v3/backup/download?include_secrets=1"
        _given(signed_in(url).get(download, timeout=TIMEOUT))
        bearer = {}
        for scope in ("read", "admin"):
            made = ledpanel(instance, "sign-in", "token", "create", scope, "--scope", scope)
            bearer[scope] = {"Authorization": f"Bearer {made.stdout.strip()}"}
        _given(requests.get(download, headers=bearer["admin"], timeout=TIMEOUT))
        _withheld(requests.get(download, headers=bearer["read"], timeout=TIMEOUT))
