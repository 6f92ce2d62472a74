"""Plugin settings forms in a real browser against real daemons: every widget round-trips."""

from __future__ import annotations

import json
import struct
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state, stored
from tests.web_service.conftest import write_plugin
from tests.web_service.ui.test_plugin_form import CLOCK_COLOURS_SCHEMA, EVERY_WIDGET_SCHEMA

pytestmark = pytest.mark.timeout(240)

FORM = '.plugin-form[data-plugin="widgets"]'
CALENDARS = "/api/v3/calendar/list-calendars?plugin_id=calendar"


def png() -> bytes:
    """Return a valid 1x1 PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str]]:
    instance = make_instance(tmp_path)
    # Uploads go to the test's own folder (the daemons inherit this environment).
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    write_plugin(instance.plugins_dir, "widgets", schema=EVERY_WIDGET_SCHEMA)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def api_config(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/v3/plugins/config?plugin_id=widgets",
                                timeout=10) as answer:
        return json.loads(answer.read())["data"]


def at(path: list[Any]) -> str:
    return f"{FORM} [data-path='{json.dumps(path)}']"


def open_form(page: Any, url: str) -> Any:
    page.goto(f"{url}/#plugin-widgets")
    form = page.locator(FORM)
    form.wait_for(timeout=15_000)
    page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
    return form


def form_value(page: Any) -> dict[str, Any]:
    """What the page would post: the form read back by plugin_form.js itself, without
    the origin index each stored table row carries (the server strips it, and unwraps
    a plain row sent as ``{__row, __value}``)."""
    return page.evaluate("""async () => {
        const { collect } = await import('/static/plugin_form.js');
        const read = collect(document.querySelector('.plugin-form[data-plugin="widgets"]'));
        const plain = (v) => v && typeof v === 'object' && !Array.isArray(v)
            && Object.keys(v).sort().join() === '__row,__value';
        return JSON.parse(JSON.stringify(read, (k, v) => (k === '__row' ? undefined
            : plain(v) ? v.__value : v)));
    }""")


def save(page: Any, expect: str) -> None:
    page.eval_on_selector(f"{FORM} .pf-form-status", "el => { el.textContent = ''; }")
    page.locator(f"{FORM} button.save-config").click()
    page.wait_for_function(
        "t => (document.querySelector('.plugin-form[data-plugin=\"widgets\"] .pf-form-status')"
        " || {}).textContent?.includes(t)", arg=expect, timeout=10_000)


def quiet(watch: Watch) -> list[str]:
    # No calendar plugin is installed: its picker says so (a 404 the page expects); a
    # reload aborts the polls in flight.
    return [p for p in watch.problems
            if "list-calendars" not in p and "404" not in p and "ERR_ABORTED" not in p]


def section(instance: Any) -> dict[str, Any]:
    return {k: v for k, v in stored(instance)["widgets"].items() if k != "enabled"}


def test_every_widget_round_trips_through_save_and_reload(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    instance, url = served
    watch = Watch(page)
    shown = api_config(url)
    form = open_form(page, url)
    # The calendar picker shows why it has no list.
    page.wait_for_function("document.querySelector('.pf-w-calendars .pf-status.error')")
    assert "calendar" in form.locator(".pf-w-calendars .pf-status").text_content()

    # Untouched, the form holds exactly the prepared config (defaults applied).
    read = form_value(page)
    assert read["problems"] == []
    assert read["config"] == {k: v for k, v in shown.items() if k != "enabled"}
    save(page, "saved")
    assert section(instance) == {k: v for k, v in shown.items()
                                 if k not in ("enabled", "api_key")}

    # Change one value through every widget.
    page.fill(at(["title"]), "")
    page.fill(at(["zip_code"]), "007")
    page.fill(at(["count"]), "0")
    page.fill(at(["ratio"]), "2.25")
    page.uncheck(at(["show_seconds"]))
    page.select_option(at(["mode"]), json.dumps('say "hi"'))
    page.select_option(at(["size"]), "3")
    page.check(f"{at(['align'])} input[value='\"right\"']")
    page.eval_on_selector(at(["brightness"]), "el => { el.value = '75';"
                          " el.dispatchEvent(new Event('input', {bubbles: true})); }")
    page.fill(at(["color"]), "#102030")
    page.fill(at(["hex_color"]), "#abcdef")
    page.select_option(at(["font"]), json.dumps("4x6"))
    page.fill(at(["timezone"]), "America/New_York")
    page.fill(at(["start_date"]), "2026-12-31")
    page.fill(at(["alarm"]), "23:15")
    page.check(f"{at(['days'])} input[value='\"sunday\"']")
    page.check(f"{at(['leagues'])} input[value='\"nfl\"']")
    page.uncheck(f"{at(['leagues'])} input[value='\"nba\"']")
    page.fill(at(["quiet_hours", "start_time"]), "21:00")
    page.check(at(["schedule", "enabled"]))
    page.check(f"{at(['schedule', 'days'])} input[value='\"monday\"']")
    teams = form.locator(".pf-field[data-name='teams']")
    teams.locator("button.pf-add-row").click()
    new_row = teams.locator("tr.pf-row").nth(1)
    new_row.locator("[data-col='abbr']").fill("NYC")
    new_row.locator("[data-col='rank']").fill("2")
    new_row.locator("[data-col='active']").uncheck()
    form.locator(".pf-field[data-name='feeds'] [data-col='url']").first.fill(
        "https://feeds.example/new")
    page.fill(at(["api_key"]), "new-secret")
    page.fill(at(["display", "inner", "label"]), "0042")
    page.fill(at(["mystery"]), "still kept")
    page.fill(at(["extra"]), '{"free": ["form", 2], "n": null}')
    page.set_input_files(f"{at(['images'])} input[type=file]",
                         files=[{"name": "a.png", "mimeType": "image/png", "buffer": png()}])
    page.wait_for_function("document.querySelector('.pf-w-files .pf-file')")
    page.set_input_files(f"{at(['logo'])} input[type=file]",
                         files=[{"name": "logo.png", "mimeType": "image/png", "buffer": png()}])
    page.wait_for_function(
        "document.querySelectorAll('.pf-w-files .pf-file').length === 2")
    save(page, "saved")

    kept = section(instance)
    expected = {**{k: v for k, v in shown.items() if k not in ("enabled", "api_key")},
                "title": "", "zip_code": "007", "count": 0, "ratio": 2.25,
                "show_seconds": False, "mode": 'say "hi"', "size": 3, "align": "right",
                "brightness": 75, "color": [16, 32, 48], "hex_color": "#abcdef", "font": "4x6",
                "timezone": "America/New_York", "start_date": "2026-12-31", "alarm": "23:15",
                "days": ["monday", "friday", "sunday"], "leagues": ["nfl"],
                "quiet_hours": {"start_time": "21:00", "end_time": "06:30"},
                "schedule": {"enabled": True, "start_time": "08:00", "end_time": "18:00",
                             "days": ["monday", "sunday"]},
                "teams": [{"abbr": "BOS", "rank": 1, "active": False},
                          {"abbr": "NYC", "rank": 2, "active": False}],
                "feeds": [{"name": "News", "url": "https://feeds.example/new",
                           "enabled": True}],
                "display": {"scroll_speed": 2, "inner": {"label": "0042", "visible": False}},
                "mystery": "still kept", "extra": {"free": ["form", 2], "n": None}}
    images, logo = kept.pop("images"), kept.pop("logo")
    assert kept == {k: v for k, v in expected.items() if k not in ("images", "logo")}
    assert [i["original_name"] for i in images] == ["a.png"]
    assert isinstance(logo, str) and logo.endswith(".png")
    assert len(list((instance.base / "assets").rglob("*.png"))) == 2
    assert "new-secret" not in json.dumps(stored(instance))
    assert "new-secret" not in page.content()

    # Reloaded, the page shows the same values, the secret as the mask.
    page.reload()
    open_form(page, url)
    again = form_value(page)["config"]
    assert again == {**kept, "images": images, "logo": logo, "api_key": "********"}
    assert page.input_value(at(["api_key"])) == "********"
    assert not page.is_checked(at(["display", "inner", "visible"]))
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        shoot(page, name)

    # Saved again untouched: nothing changes, and the mask keeps the secret.
    before = stored(instance)
    save(page, "saved")
    assert stored(instance) == before
    assert api_config(url)["api_key"] == "********"
    assert quiet(watch) == []


def test_a_refused_save_names_the_field_and_changes_nothing(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    instance, url = served
    watch = Watch(page)
    open_form(page, url)
    before = stored(instance)
    page.fill(at(["count"]), "500")
    page.fill(at(["title"]), "changed")
    save(page, "nothing was saved")
    error = page.locator(f"{FORM} .pf-field[data-name='count'] > .pf-error")
    assert error.is_visible() and "500" in error.text_content()
    assert page.locator(f"{FORM} .pf-field[data-name='title'] > .pf-error").is_hidden()
    assert stored(instance) == before
    shoot(page, "refused")
    # Bad JSON is caught before any request.
    page.fill(at(["extra"]), "{not json")
    save(page, "fix the marked fields")
    assert "not valid JSON" in page.locator(
        f"{FORM} .pf-field[data-name='extra'] > .pf-error").text_content()
    assert stored(instance) == before
    assert [p for p in quiet(watch) if "400" not in p] == []


ODD_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "enabled": {"type": "boolean", "default": True},
    "accounts": {"type": "array", "x-widget": "array-table", "items": {
        "type": "object", "properties": {"name": {"type": "string"},
                                         "token": {"type": "string", "x-secret": True}}}},
    "keys": {"type": "array", "items": {"type": "string", "x-secret": True}},
    "unbounded": {"type": "integer", "x-widget": "slider"},
    "bounded": {"type": "integer", "x-widget": "slider", "minimum": 0, "maximum": 10},
    "named": {"type": "string", "x-widget": "color-picker"},
    "rgb": {"type": "array", "x-widget": "color-picker", "items": {"type": "integer"}},
    "alarm": {"type": "string", "x-widget": "time-picker"},
    "day": {"type": "string", "x-widget": "date-picker"},
}}
ODD_CONFIG: dict[str, Any] = {
    "accounts": [{"name": "alice", "token": "TOK-A", "note": "kept-a"},
                 {"name": "bob", "token": "TOK-B", "note": "kept-b"}],
    "keys": ["KEY-A", "KEY-B"],
    "unbounded": 300, "named": "red", "rgb": [300, 0, 0], "alarm": "7:00", "day": "1/2/2026"}


def test_an_untouched_save_changes_nothing_and_a_removed_row_keeps_its_own_secret(
        page: Any, tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    write_plugin(instance.plugins_dir, "odd", schema=ODD_SCHEMA)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        request = urllib.request.Request(
            f"{url}/api/v3/plugins/config", method="POST",
            data=json.dumps({"plugin_id": "odd", "config": ODD_CONFIG}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200
        files = [instance.config_dir / "config.json", instance.config_dir / "config_secrets.json"]
        before = [f.read_bytes() for f in files]
        form = '.plugin-form[data-plugin="odd"]'

        def save_odd() -> None:
            page.eval_on_selector(f"{form} .pf-form-status", "el => { el.textContent = ''; }")
            page.locator(f"{form} button.save-config").click()
            page.wait_for_function(
                "f => (document.querySelector(f + ' .pf-form-status') || {})"
                ".textContent?.includes('saved')", arg=form, timeout=10_000)

        page.goto(f"{url}/#plugin-odd")
        page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
        save_odd()
        assert [f.read_bytes() for f in files] == before

        # Remove alice's row: bob keeps his own token and the key no column shows.
        page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
        page.locator(f"{form} .pf-field[data-name='accounts'] .pf-remove-row").first.click()
        save_odd()
        secrets = json.loads(files[1].read_text())
        assert secrets["odd"]["accounts"] == [{"name": "bob", "token": "TOK-B",
                                               "note": "kept-b"}]
        # A list of plain secrets too: the second key stays itself when the first goes.
        page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
        page.locator(f"{form} .pf-field[data-name='keys'] .pf-remove-row").first.click()
        save_odd()
        assert json.loads(files[1].read_text())["odd"]["keys"] == ["KEY-B"]
        main = json.loads(files[0].read_text())["odd"]
        assert {k: main[k] for k in ("unbounded", "named", "rgb", "alarm", "day")} == {
            k: ODD_CONFIG[k] for k in ("unbounded", "named", "rgb", "alarm", "day")}
        assert "bounded" not in main


def test_a_colour_stored_as_r_g_b_is_picked_and_saved_as_r_g_b(
        page: Any, tmp_path: Path, shoot: Any) -> None:
    instance = make_instance(tmp_path)
    write_plugin(instance.plugins_dir, "clocky", schema=CLOCK_COLOURS_SCHEMA)
    form = '.plugin-form[data-plugin="clocky"]'
    time_colour = f"{form} [data-path='{json.dumps(['customization', 'time_text', 'text_color'])}']"
    date_colour = f"{form} [data-path='{json.dumps(['customization', 'date_text', 'text_color'])}']"
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        watch = Watch(page)
        page.goto(f"{url}/#plugin-clocky")
        page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
        assert page.get_attribute(time_colour, "type") == "color"
        assert page.input_value(time_colour) == "#ffffff"
        assert page.input_value(date_colour) == "#ff8040"
        page.fill(time_colour, "#10a0ff")
        page.locator(f"{form} button.save-config").click()
        page.wait_for_function(
            "f => (document.querySelector(f + ' .pf-form-status') || {})"
            ".textContent?.includes('saved')", arg=form, timeout=10_000)
        shoot(page, "colour-saved")
        colours = stored(instance)["clocky"]["customization"]
        assert colours["time_text"]["text_color"] == [16, 160, 255]
        assert colours["date_text"]["text_color"] == [255, 128, 64]  # untouched, as it was
        # Drawn again from what was stored.
        page.wait_for_function("document.querySelector('.plugin-form[data-ready]')")
        assert page.input_value(time_colour) == "#10a0ff"
        assert watch.problems == []
