"""How the pages word what runs, and how they read on a phone, in a real browser against
real daemons: the header badge names the plugin on one line, the Overview's On-demand
card follows a run whoever started it (counting down), the Logs tab says where it reads
and that nothing came yet (or why it cannot read), and the Backup checkbox and the wide
tables of Operation History and Fonts read on a 390 px screen.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.logs.daemon_logs import log_file
from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = pytest.mark.timeout(240)

LONG_NAME = "Still Life With A Rather Long Name"


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Any:
    made = make_instance(tmp_path_factory.mktemp("wording"))
    manifest = made.plugins_dir / "still" / "manifest.json"
    record = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**record, "name": LONG_NAME}))
    return made


@pytest.fixture(scope="module")
def url(instance: Any) -> Iterator[str]:
    with running(instance) as (display, _web, address):
        running_state(instance, display)
        yield address


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()


def on_demand(url: str, action: str, **body: Any) -> None:
    """Start or stop an on-demand run through the API, as a plugin tab or a script does."""
    answer = requests.post(f"{url}/api/v3/display/on-demand/{action}", json=body, timeout=10)
    assert answer.status_code in (200, 202), answer.text


def test_the_header_badge_names_the_plugin_on_one_line_on_a_phone(
        phone: Any, url: str, shoot: Any) -> None:
    watch = Watch(phone)
    phone.goto(url)
    badge = phone.locator("#header-state")
    phone.wait_for_function("document.getElementById('header-state').title.startsWith('showing')")
    assert badge.get_attribute("title") == f"showing {LONG_NAME}"  # not "still / still"
    box = badge.bounding_box()
    title = phone.locator("header h1").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    assert abs(box["y"] - title["y"]) < title["height"]  # beside the title, not below it
    assert box["height"] < 2 * badge.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
    assert badge.evaluate("el => el.scrollWidth > el.clientWidth")  # cut short...
    assert badge.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"  # ...visibly
    shoot(phone, "header")
    assert watch.problems == []


def test_the_on_demand_card_follows_a_run_started_elsewhere(
        page: Any, url: str, shoot: Any) -> None:
    watch = Watch(page)
    page.goto(url)
    now = page.locator("#on-demand-now")
    now.filter(has_text="Nothing runs on demand").wait_for(timeout=10_000)
    try:
        on_demand(url, "start", plugin_id="still", duration=120)
        now.filter(has_text=f"Running on demand: {LONG_NAME}, 1:").wait_for(timeout=10_000)
        first = now.text_content()
        assert first.endswith(" left.") and "still / still" not in first
        time.sleep(2.2)
        assert now.text_content() != first  # it counts down
        assert page.input_value("#on-demand-plugin") == "still"
        assert page.text_content("#message") == ""  # nothing was pressed here
        rows = page.locator("#display .row").all_text_contents()
        assert any(r.startswith("On-demand") and LONG_NAME in r for r in rows)
        assert any(r == f"Panelshowing {LONG_NAME} (on-demand)" for r in rows)
        shoot(page, "counting-down")

        on_demand(url, "start", plugin_id="still", pinned=True)
        now.filter(has_text=f"Running on demand: {LONG_NAME}, pinned.").wait_for(timeout=10_000)
    finally:
        on_demand(url, "stop")
    now.filter(has_text="Nothing runs on demand: the rotation shows.").wait_for(timeout=10_000)
    assert watch.problems == []


def test_the_backup_checkbox_sits_beside_its_words_on_a_phone(
        phone: Any, url: str, shoot: Any) -> None:
    phone.goto(url)
    panel = open_tab(phone, "backup", phone=True)
    box = panel.locator("[data-backup-secrets]").bounding_box()
    words = panel.locator("label:has([data-backup-secrets]) span").bounding_box()
    assert box["x"] + box["width"] <= words["x"]
    assert words["y"] <= box["y"] + box["height"] / 2 <= words["y"] + words["height"]
    shoot(phone, "backup")


def cells(panel: Any, table: str) -> list[dict[str, Any]]:
    """The first row's cells: label shown before each, and where each is drawn."""
    return panel.locator(f"{table} tbody tr").first.locator("td").evaluate_all("""tds => tds.map(
        (td) => ({label: getComputedStyle(td, "::before").content,
                  top: td.getBoundingClientRect().top}))""")


@pytest.mark.parametrize("tab,table,labels", [
    ("history", "[data-history-table]", ["Time", "Kind", "What", "Plugin", "Result"]),
    ("fonts", "[data-fonts-table]", ["Family", "Kind", "Sizes", "Source", "Preview"]),
], ids=["history", "fonts"])
def test_wide_tables_read_as_cards_on_a_phone_and_as_tables_on_a_desktop(
        browser: Any, url: str, shoot: Any, tab: str, table: str, labels: list[str]) -> None:
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(url)
        panel = open_tab(page, tab, phone=name == "phone")
        panel.locator(f"{table} tbody tr").first.wait_for()
        shown = cells(panel, table)[:len(labels)]
        width = panel.locator(table).evaluate(
            "el => [el.scrollWidth, el.parentElement.clientWidth]")
        if name == "phone":
            assert [c["label"] for c in shown] == [json.dumps(label) for label in labels]
            tops = [c["top"] for c in shown]
            assert tops == sorted(tops) and len(set(tops)) == len(tops)  # one under another
            assert width[0] <= width[1]  # nothing hidden off to the side
        else:
            assert {c["label"] for c in shown} == {"none"}
            assert len({round(c["top"]) for c in shown}) == 1  # one line per row
        shoot(page, name)
        context.close()


@pytest.fixture
def logs_instance(tmp_path: Path) -> Any:
    made = make_instance(tmp_path)
    for daemon in ("display", "web"):  # read from files nobody writes (the daemons print)
        log_file(made.cache_dir, daemon).parent.mkdir(parents=True, exist_ok=True)
        log_file(made.cache_dir, daemon).write_text("")
    return made


def test_the_logs_tab_says_where_it_reads_and_that_no_line_came_yet(
        page: Any, logs_instance: Any, shoot: Any) -> None:
    with running(logs_instance) as (display, _web, address):
        running_state(logs_instance, display)
        watch = Watch(page)
        page.goto(f"{address}/#logs")
        tab = page.locator("#tab-logs")
        empty = tab.locator("[data-logs-view] [data-logs-empty]")
        empty.filter(has_text="No log lines yet.").wait_for(timeout=15_000)
        where = tab.locator("[data-logs-sources]").text_content()
        for daemon in ("display", "web"):
            assert f"{daemon}: log file {log_file(logs_instance.cache_dir, daemon)}" in where
        shoot(page, "empty")
        with log_file(logs_instance.cache_dir, "display").open("a") as log:
            log.write("WARNING ledpanel-display: the first line\n")
        tab.locator(".log-line").filter(has_text="the first line").wait_for(timeout=15_000)
        assert empty.count() == 0
        tab.locator("[data-logs-clear]").click()
        assert empty.text_content() == "No log lines yet."
        assert watch.problems == []


def test_the_logs_tab_says_why_it_cannot_read_the_logs(
        page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shoot: Any) -> None:
    made = make_instance(tmp_path)
    # No log file and no journalctl to run: the journal cannot be read.
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with running(made) as (display, _web, address):
        running_state(made, display)
        page.goto(f"{address}/#logs")
        empty = page.locator("#tab-logs [data-logs-view] [data-logs-empty]")
        empty.filter(has_text="Cannot read the logs: ").wait_for(timeout=15_000)
        assert "journalctl" in empty.text_content()
        assert "error" in (empty.get_attribute("class") or "")
        shoot(page, "unreadable")
