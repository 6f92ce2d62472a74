"""The Overview follows a core update in a real browser against the real web daemon:
the phase while it runs, the verdict when it comes, and a lost update with what to do.
The updater's state file is written here as the updater writes it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from shared.core_update import state as files
from shared.core_update.limits import LOST_TIMEOUT
from tests.daemons import Instance, start_web

pytestmark = pytest.mark.timeout(120)


def test_the_overview_shows_progress_then_the_verdict(tmp_path: Path, page: Any,
                                                       shoot: Any) -> None:
    instance = Instance(tmp_path)
    started = time.time()
    files.write_state(instance.cache_dir, {"id": "u1", "result": "verifying",
                                           "phase": "verifying", "started_at": started})
    web, url = start_web(instance)
    try:
        page.goto(url)
        line = page.locator("#core-update")
        line.get_by_text("Updating: checking the new release is healthy").wait_for(
            timeout=15_000)
        assert line.get_attribute("data-running") == "true"
        shoot(page, "core-update-verifying")
        files.write_state(instance.cache_dir, {
            "id": "u1", "result": "rolled_back", "phase": "done", "started_at": started,
            "message": "the new release failed its health check; rolled back to abc"})
        line.get_by_text("Rolled back: the new release failed its health check").wait_for(
            timeout=15_000)
        assert "error" in (line.get_attribute("class") or "")
        assert line.get_attribute("data-running") == "false"
        shoot(page, "core-update-rolled-back")
    finally:
        web.stop()


def test_an_update_without_a_verdict_past_the_lost_timeout_is_lost(
        tmp_path: Path, page: Any) -> None:
    instance = Instance(tmp_path)
    files.write_state(instance.cache_dir, {
        "id": "u2", "result": "verifying", "phase": "verifying",
        "started_at": time.time() - LOST_TIMEOUT - 5})
    web, url = start_web(instance)
    try:
        page.goto(url)
        page.locator("#core-update").get_by_text("Update lost:").wait_for(timeout=15_000)
        assert "Update Code again" in page.locator("#core-update").text_content()
    finally:
        web.stop()
