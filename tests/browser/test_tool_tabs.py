"""The Fonts, Logs, Cache and Operation History tabs in a real browser against real daemons."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.plugin_api.boundary import plugin_call
from shared.plugin_api.cache.manager import CacheManager
from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import Daemon, running
from tests.system.test_no_lost_changes import make_instance, running_state
from tests.web_service.log_helpers import EventStream, open_stream

pytestmark = pytest.mark.timeout(240)

FONT_FILES = Path(__file__).resolve().parent.parent / "web_service" / "font_files"
TOOL_TABS = ["fonts", "logs", "cache", "history"]
MAX_STREAMS = 4


def _mirror(web: Daemon, target: Path, stop: threading.Event) -> None:
    """Copy the web daemon's output into its log file, as scripts/dev's supervisor does."""
    target.parent.mkdir(parents=True, exist_ok=True)
    done = 0
    with target.open("a", encoding="utf-8") as log:
        while not stop.wait(0.2):  # bounded by the fixture setting ``stop``
            lines = web.lines[done:]
            done += len(lines)
            log.writelines(lines)
            log.flush()


@pytest.fixture
def instance(tmp_path: Path) -> Any:
    return make_instance(tmp_path)


@pytest.fixture
def served(instance: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    # A quick heartbeat: a stream the browser closed is noticed (its slot freed) at once.
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    with running(instance) as (display, web, url):
        running_state(instance, display)
        stop = threading.Event()
        mirror = threading.Thread(target=_mirror, daemon=True,
                                  args=(web, instance.cache_dir / "logs" / "web.log", stop))
        mirror.start()
        try:
            yield url
        finally:
            stop.set()
            mirror.join(5)


def _streams_free(url: str) -> int:
    """Open streams until one is refused; return how many were taken, then close them."""
    taken: list[EventStream] = []
    try:
        for _ in range(MAX_STREAMS + 1):
            stream = open_stream(f"{url}/stream/logs?lines=1")
            if stream.response.status_code != 200:
                stream.close()
                break
            taken.append(stream)
        return len(taken)
    finally:
        for stream in taken:
            stream.close()


def _wait_streams_free(page: Any, url: str, want: int) -> int:
    free = -1
    for _ in range(15):  # the server notices a closed stream at a heartbeat: well within 15 s
        free = _streams_free(url)
        if free == want:
            return free
        page.wait_for_timeout(1000)  # the probe's own streams must go first
    return free


def test_each_tool_tab_opens_cleanly_at_phone_and_desktop_widths(
        browser: Any, served: str, shoot: Any) -> None:
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        watch = Watch(page)
        page.goto(served)
        page.wait_for_selector("#display dt")
        for key in TOOL_TABS:
            panel = open_tab(page, key, phone=name == "phone")
            assert panel.locator("[data-partial-error]").count() == 0, key
            page.wait_for_timeout(600)  # its own requests: previews, the log stream
            shoot(page, f"{name}-{key}")
        # Tables scroll inside their card on a phone instead of widening the page.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, (name, width)
        assert watch.problems == []
        context.close()


def test_a_font_uploaded_in_the_tab_is_listed_previewed_and_deleted(
        page: Any, served: str, tmp_path: Path, shoot: Any) -> None:
    watch = Watch(page)
    page.goto(f"{served}/#fonts")
    tab = page.locator("#tab-fonts")
    form = tab.locator("[data-fonts-upload]")
    form.wait_for()
    form.locator('input[name="font_file"]').set_input_files(str(FONT_FILES / "4x6.pcf"))
    form.locator('input[name="font_family"]').fill("tiny-test")
    form.locator('button[type="submit"]').click()
    row = tab.locator('tr[data-font="tiny-test"]')
    row.wait_for()
    assert "uploaded" in row.text_content()
    assert "font tiny-test uploaded" in tab.locator("[data-fonts-status]").text_content()
    image = row.locator("img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                           arg=image.element_handle())
    catalog = requests.get(f"{served}/api/v3/fonts/catalog", timeout=5).json()["data"]["fonts"]
    assert "tiny-test" in [f["family"] for f in catalog]
    # The preview box draws the chosen font.
    tab.locator('[data-fonts-preview] select[name="font"]').select_option("tiny-test")
    page.wait_for_function("""() => {
        const img = document.querySelector('#tab-fonts [data-fonts-preview-image]');
        return !img.hidden && img.complete && img.naturalWidth > 0
            && img.alt === 'tiny-test preview'; }""")
    shoot(page, "uploaded")

    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("[data-font-delete]").click()
    tab.locator('tr[data-font="tiny-test"]').wait_for(state="detached")
    catalog = requests.get(f"{served}/api/v3/fonts/catalog", timeout=5).json()["data"]["fonts"]
    assert "tiny-test" not in [f["family"] for f in catalog]
    assert watch.problems == []


def test_a_refused_font_upload_shows_the_error_beside_the_field(
        page: Any, served: str, tmp_path: Path, shoot: Any) -> None:
    garbage = tmp_path / "broken.ttf"
    garbage.write_bytes(b"this is no font at all" * 20)
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/fonts/upload", 400))
    page.goto(f"{served}/#fonts")
    form = page.locator("#tab-fonts [data-fonts-upload]")
    form.wait_for()
    form.locator('input[name="font_file"]').set_input_files(str(garbage))
    form.locator('input[name="font_family"]').fill("broken")
    form.locator('button[type="submit"]').click()
    error = form.locator('[data-error-for="font_file"]')
    error.wait_for()
    assert error.text_content().strip()
    assert not form.locator('button[type="submit"]').is_disabled()
    assert page.locator('#tab-fonts tr[data-font="broken"]').count() == 0
    shoot(page, "refused")
    assert [p for p in watch.problems if not p.startswith("console:")] == []


def test_logs_follow_the_web_daemon_and_leaving_the_tab_closes_the_stream(
        page: Any, served: str, shoot: Any) -> None:
    watch = Watch(page)
    page.goto(f"{served}/#logs")
    view = page.locator("#tab-logs [data-logs-view]")
    view.wait_for()
    page.select_option("#tab-logs select[name='level']", "DEBUG")
    page.wait_for_function(
        "document.querySelector('#tab-logs [data-logs-status]').textContent.includes('Following')")
    # A line the web daemon writes after the page opened shows up live.
    with (FONT_FILES / "4x6.pcf").open("rb") as font:
        answer = requests.post(f"{served}/api/v3/fonts/upload", timeout=10,
                               files={"font_file": ("4x6.pcf", font)},
                               data={"font_family": "logged-font"})
    assert answer.status_code == 200
    page.wait_for_function(
        "document.querySelector('#tab-logs [data-logs-view]').textContent"
        ".includes('font logged-font uploaded')", timeout=15_000)
    assert view.locator(".log-line .daemon").first.text_content() == "web"
    shoot(page, "following")
    # This page holds one stream: the server has 3 left.
    assert _wait_streams_free(page, served, MAX_STREAMS - 1) == MAX_STREAMS - 1
    open_tab(page, "cache")
    assert _wait_streams_free(page, served, MAX_STREAMS) == MAX_STREAMS
    # Back on the tab, it follows again; pausing lets the stream go too.
    page.wait_for_timeout(1500)  # the probe's streams are gone: the page gets a slot
    open_tab(page, "logs")
    page.wait_for_function(
        "document.querySelector('#tab-logs [data-logs-status]').textContent.includes('Following')")
    assert _wait_streams_free(page, served, MAX_STREAMS - 1) == MAX_STREAMS - 1
    page.click("#tab-logs [data-logs-pause]")
    assert _wait_streams_free(page, served, MAX_STREAMS) == MAX_STREAMS
    # Resumed, then the page hidden (another browser tab in front): the stream goes.
    page.wait_for_timeout(1500)
    page.click("#tab-logs [data-logs-pause]")
    page.wait_for_function(
        "document.querySelector('#tab-logs [data-logs-status]').textContent.includes('Following')")
    page.evaluate("""() => {
        Object.defineProperty(document, "visibilityState", {configurable: true,
                                                            get: () => "hidden"});
        document.dispatchEvent(new Event("visibilitychange")); }""")
    assert _wait_streams_free(page, served, MAX_STREAMS) == MAX_STREAMS
    assert watch.problems == []


def test_logs_fall_back_to_polling_when_every_stream_is_taken(
        page: Any, served: str, shoot: Any) -> None:
    held = [open_stream(f"{served}/stream/logs?lines=1") for _ in range(MAX_STREAMS)]
    try:
        assert all(s.response.status_code == 200 for s in held)
        page.goto(f"{served}/#logs")
        notice = page.locator("#tab-logs [data-logs-notice]")
        notice.wait_for(timeout=15_000)
        assert "every 5 seconds" in notice.text_content()
        page.wait_for_function("document.querySelector('#tab-logs [data-logs-status]')"
                               ".textContent.startsWith('Read at')")
        assert page.locator("#tab-logs .log-line").count() > 0
        shoot(page, "polling")
    finally:
        for stream in held:
            stream.close()


def test_cache_entries_a_plugin_wrote_are_listed_and_cleared(
        page: Any, served: str, instance: Any, shoot: Any) -> None:
    cache = CacheManager(instance.cache_dir)
    with plugin_call("weather", "update"):
        cache.set("weather_today", {"temp": 21, "sky": "clear"})
        cache.set("<img src=x onerror=alert(1)>", "hostile")
    cache.set("core_note", "x" * 3000)
    watch = Watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{served}/#cache")
    tab = page.locator("#tab-cache")
    rows = tab.locator("tr[data-cache-row]")
    rows.first.wait_for()
    assert rows.count() == 3
    text = tab.locator("[data-cache-table]").text_content()
    assert "weather_today" in text and "weather" in text and "<img src=x onerror=alert(1)>" in text
    assert tab.locator("img").count() == 0
    assert "KiB" in tab.locator("tr", has_text="core_note").text_content()
    shoot(page, "listed")

    tab.locator('[data-cache-key="weather_today"]').click()
    tab.locator('[data-cache-key="weather_today"]').wait_for(state="detached")
    assert rows.count() == 2
    assert cache.get("weather_today") is None

    tab.locator("[data-cache-clear-all]").click()
    tab.locator("text=The cache is empty.").wait_for()
    listed = requests.get(f"{served}/api/v3/cache/list", timeout=5).json()["data"]
    assert listed["count"] == 0
    # A new entry shows after Refresh.
    cache.set("fresh_one", 1)
    tab.locator("[data-cache-refresh]").click()
    tab.locator('[data-cache-key="fresh_one"]').wait_for()
    assert watch.problems == []


def test_history_shows_a_toggle_made_through_the_api_and_pages_back(
        page: Any, served: str, shoot: Any) -> None:
    watch = Watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{served}/#history")
    tab = page.locator("#tab-history")
    tab.locator("[data-history-table]").wait_for()
    tab.locator('[data-partial="history"][data-wired]').wait_for()  # its script ran
    assert tab.locator("[data-history-more]").is_hidden()  # one short page
    answer = requests.post(f"{served}/api/v3/plugins/toggle", timeout=5,
                           json={"plugin_id": "still", "enabled": False})
    assert answer.status_code == 200
    # Opening the tab again shows what happened meanwhile.
    open_tab(page, "cache")
    open_tab(page, "history")
    row = tab.locator("tr[data-history-row]", has_text="plugins.toggle").first
    row.wait_for()
    assert "still" in row.text_content() and "success" in row.text_content()
    # The script turns each time into local time once the partial settled; wait for that.
    row.locator("time[data-local]").wait_for()
    assert row.locator("time").get_attribute("title").endswith("UTC")  # shown in local time
    shoot(page, "toggle")

    # The plugin filter keeps only that plugin's entries.
    tab.locator("select[name='plugin_id']").select_option("still")
    page.wait_for_function("""() => {
        const rows = [...document.querySelectorAll('#tab-history tr[data-history-row]')];
        return rows.length > 0 && rows.every(r => r.children[3].textContent === 'still')
            && document.querySelector('#tab-history select[name=plugin_id]').value === 'still';
    }""")

    # Load more: a page of 50, then the rest, with no entry twice.
    tab.locator("select[name='plugin_id']").select_option("")
    page.wait_for_function(
        "document.querySelector('#tab-history select[name=plugin_id]').value === ''")
    for n in range(60):
        requests.post(f"{served}/api/v3/plugins/toggle", timeout=5,
                      json={"plugin_id": "still", "enabled": n % 2 == 0})
    tab.locator("[data-history-refresh]").click()
    more = tab.locator("[data-history-more]")
    more.wait_for()
    assert tab.locator("tr[data-history-row]").count() == 50
    for _ in range(10):  # each toggle adds an API entry and the display's plugin events
        if more.is_hidden():  # the last page: nothing older
            break
        shown = tab.locator("tr[data-history-row]").count()
        more.click()
        page.wait_for_function(
            f"document.querySelectorAll('#tab-history tr[data-history-row]').length > {shown}")
        page.wait_for_function(
            "!document.querySelector('#tab-history [data-history-more]').disabled")
    assert more.is_hidden()
    ids = tab.locator("tr[data-history-row]").evaluate_all("rows => rows.map(r => r.dataset.id)")
    assert len(ids) == len(set(ids)) and len(ids) > 100
    assert [int(i) for i in ids] == sorted((int(i) for i in ids), reverse=True)
    listed = requests.get(f"{served}/api/v3/history?limit=1000", timeout=5).json()["data"]
    # The display may record another plugin event after the page's last refresh.
    assert len(ids) == len([e for e in listed["entries"] if e["id"] <= int(ids[0])])

    tab.locator("[data-history-clear]").click()
    page.wait_for_function("document.querySelector('#tab-history [data-history-status]')"
                           ".textContent === 'history cleared'")
    assert tab.locator("tr[data-history-row]").count() <= 1  # the clear itself
    assert watch.problems == []
