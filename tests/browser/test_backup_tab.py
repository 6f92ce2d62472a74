"""The Backup & Restore tab in a real browser against real daemons: download with and
without secrets, a refused file, a dry run then Confirm, the kept pre-restore backup."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state, stored

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def _open(page: Any, url: str) -> Any:
    page.goto(f"{url}/")
    page.click('.tab-bar [data-tab="backup"]')
    panel = page.locator("#tab-backup [data-backup]")
    panel.wait_for(timeout=15_000)
    # The list shows "Loading…" until the kept backups are read: wait for what replaces it.
    panel.locator("[data-backup-kept] li:not(.loading)").first.wait_for(timeout=10_000)
    return panel


def _download(page: Any, where: Any, tmp_path: Path, name: str,
              button: str = "[data-backup-download]") -> zipfile.ZipFile:
    with page.expect_download(timeout=15_000) as info:
        (where.locator(button) if button else where).click()
    target = tmp_path / name
    info.value.save_as(str(target))
    return zipfile.ZipFile(target)


def test_download_and_restore_through_the_tab(page: Any, served: tuple[Any, str], shoot: Any,
                                             tmp_path: Path) -> None:
    instance, url = served
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and "400" not in m.text
            and problems.append(m.text))
    page.on("pageerror", lambda err: problems.append(str(err)))
    secrets_file = instance.config_dir / "config_secrets.json"
    secrets_file.write_text(json.dumps({"weather": {"api_key": "s3cret"}}))
    panel = _open(page, url)
    assert panel.locator("[data-backup-kept]").inner_text().startswith("None yet")

    plain = _download(page, panel, tmp_path, "plain.zip")
    assert "config/config_secrets.json" not in plain.namelist()
    warning = panel.locator("[data-backup-secrets-warning]")
    assert not warning.is_visible()
    panel.locator("[data-backup-secrets]").check()
    assert warning.is_visible() and "plain text" in warning.inner_text()
    with_secrets = _download(page, panel, tmp_path, "secret.zip")
    assert json.loads(with_secrets.read("config/config_secrets.json")) == {
        "weather": {"api_key": "s3cret"}}
    before = stored(instance)

    # A file that is no backup: refused with its code, nothing offered to confirm.
    file_input = panel.locator('input[name="backup_file"]')
    file_input.set_input_files({"name": "junk.zip", "mimeType": "application/zip",
                                "buffer": b"not a zip"})
    panel.locator('[data-backup-restore] button[type="submit"]').click()
    error = panel.locator("[data-backup-error]")
    error.wait_for(state="visible", timeout=10_000)
    assert "INVALID_BACKUP" in error.inner_text() and "nothing changed" in error.inner_text()
    assert not panel.locator("[data-backup-plan]").is_visible()
    shoot(page, "refused")

    changed = requests.post(f"{url}/api/v3/config/main", timeout=10,
                            json={"still": {"interval": 77}})
    assert changed.status_code == 200, changed.text
    file_input.set_input_files(str(tmp_path / "plain.zip"))
    panel.locator('[data-backup-restore] button[type="submit"]').click()
    plan = panel.locator("[data-backup-plan]")
    plan.wait_for(state="visible", timeout=10_000)
    assert not error.is_visible()
    assert "Config: changes still" in plan.inner_text()
    assert "stored ones are kept" in plan.inner_text()
    assert stored(instance)["still"]["interval"] == 77  # the dry run changed nothing
    shoot(page, "dry-run")

    panel.locator("[data-backup-confirm]").click()
    done = panel.locator("[data-backup-done]")
    done.wait_for(state="visible", timeout=10_000)
    assert "pre-restore-" in done.inner_text()
    assert stored(instance) == before
    link = panel.locator("[data-backup-kept] a")
    link.first.wait_for(timeout=10_000)
    assert link.count() == 1
    shoot(page, "restored")

    # "Include secrets" is still ticked: the kept backup's link carries them.
    assert link.first.get_attribute("href").endswith("?include_secrets=1")
    archive = _download(page, link.first, tmp_path, "kept.zip", "")
    assert json.loads(archive.read("config/config.json"))["still"]["interval"] == 77
    assert json.loads(archive.read("config/config_secrets.json")) == {
        "weather": {"api_key": "s3cret"}}
    # Outside the panel's own pages (no page token, sign-in off) the link gets no secrets.
    outside = requests.get(url + link.first.get_attribute("href"), timeout=10)
    assert outside.status_code == 200 and b"s3cret" not in outside.content
    panel.locator("[data-backup-secrets]").uncheck()
    assert link.first.get_attribute("href").endswith("?include_secrets=0")
    archive = _download(page, link.first, tmp_path, "kept-plain.zip", "")
    assert "config/config_secrets.json" not in archive.namelist()
    assert "s3cret" not in "".join(archive.read(n).decode() for n in archive.namelist())
    # A page whose token is no longer the panel's gets no secrets, and the tab says why.
    page.evaluate("document.querySelector('meta[name=\"ledpanel-token\"]').content = 'old'")
    panel.locator("[data-backup-secrets]").check()
    archive = _download(page, panel, tmp_path, "stale.zip")
    assert "config/config_secrets.json" not in archive.namelist()
    status = panel.locator("[data-backup-download-status]")
    assert "secrets not included" in status.inner_text()
    assert problems == []
