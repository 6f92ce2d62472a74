"""The settings tabs and the Config Editor in a real browser against real daemons.

Each form saves a value and shows it again after a reload; a refused save shows the
server's message next to the field it names and leaves config.json as it was; the
brightness slider reaches the running display.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import running
from tests.display_service.helpers import wait_until
from tests.system.test_no_lost_changes import make_instance, running_state, state, stored

pytestmark = pytest.mark.timeout(240)

FORMS = ["general", "display", "durations", "schedule", "vegas", "config-editor"]


@pytest.fixture
def instance(tmp_path: Any) -> Any:
    made = make_instance(tmp_path)
    config = stored(made)
    # A mapping this project does not know (the library's old name): kept as stored.
    config["display"]["hardware"]["hardware_mapping"] = "adafruit-hat"
    config["location"]["country"] = "007"
    made.write_config(config)
    return made


@pytest.fixture
def served(instance: Any) -> Iterator[tuple[Any, str]]:
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield display, url


def open_form(page: Any, url: str, key: str) -> Any:
    """Load the page on ``key``'s tab and return the tab's panel."""
    page.goto(f"{url}/#{key}")
    panel = page.locator(f"#tab-{key}")
    panel.locator(f'[data-partial="{key}"]').wait_for(timeout=15_000)
    return panel


def save(panel: Any, form: str = "form[data-settings-form]") -> Any:
    target = panel.locator(form).first
    target.locator('button[type="submit"]').click()
    status = target.locator(".sf-status")
    status.filter(has_text="aved").wait_for(timeout=10_000)  # "Saved." or "Not saved: ..."
    return target


def caret(page: Any) -> list[int]:
    """Return the Config Editor's caret as [line, column], 1-based; the box must have focus."""
    return page.evaluate("""() => { const el = document.activeElement;
        if (el?.id !== "raw-config") return null;
        const before = el.value.slice(0, el.selectionStart).split("\\n");
        return [before.length, before[before.length - 1].length + 1]; }""")


def problems(watch: Watch) -> list[str]:
    """What went wrong in the page, but the browser's own note of an expected 400."""
    return [p for p in watch.problems
            if "responded with a status of 400" not in p or not watch.expected_status]


def raw_text(instance: Any) -> bytes:
    return (instance.config_dir / "config.json").read_bytes()


def test_general_round_trips_through_save_and_reload(page: Any, served: Any,
                                                     instance: Any) -> None:
    _display, url = served
    watch = Watch(page)
    panel = open_form(page, url, "general")
    page.fill("#timezone-search", "berlin")
    assert page.input_value("#f-timezone") == "Europe/Berlin"
    page.fill("#f-location-city", "Springfield")
    page.uncheck("#f-display-use_short_date_format")
    # The update day and time mean something only with weekly updates on.
    assert page.is_disabled("#f-auto_update-day") and page.is_disabled("#f-auto_update-time")
    page.check("#f-auto_update-enabled")
    assert page.is_enabled("#f-auto_update-day") and page.is_enabled("#f-auto_update-time")
    page.select_option("#f-auto_update-day", "friday")
    # The daemons listen on a port of their own: the port field says so.
    port = url.rsplit(":", 1)[1]
    assert f"listens on port {port} now" in panel.locator(
        '[data-field="web.port"] .hint').text_content()
    form = save(panel)
    assert form.locator(".sf-status").text_content() == "Saved."
    config = stored(instance)
    assert config["timezone"] == "Europe/Berlin"
    assert config["location"]["city"] == "Springfield"
    assert config["location"]["country"] == "007"  # not re-typed as a number
    assert config["display"]["use_short_date_format"] is False
    assert config["auto_update"] == {"enabled": True, "day": "friday", "time": "03:00"}
    # The unknown mapping was not part of this save, nor of any save below it.
    assert config["display"]["hardware"]["hardware_mapping"] == "adafruit-hat"

    page.reload()
    panel.locator('[data-partial="general"]').wait_for()
    assert page.input_value("#f-timezone") == "Europe/Berlin"
    assert page.input_value("#f-location-city") == "Springfield"
    assert page.input_value("#f-location-country") == "007"
    assert not page.is_checked("#f-display-use_short_date_format")
    assert page.is_checked("#f-auto_update-enabled")
    page.uncheck("#f-auto_update-enabled")
    assert page.is_disabled("#f-auto_update-day")
    save(panel)
    # Off again; the day stays as stored (a disabled field is not sent).
    assert stored(instance)["auto_update"] == {"enabled": False, "day": "friday",
                                               "time": "03:00"}
    assert problems(watch) == []


def test_a_refused_save_shows_the_field_error_and_changes_nothing(page: Any, served: Any,
                                                                 instance: Any) -> None:
    _display, url = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/config/main", 400))
    panel = open_form(page, url, "general")
    before = raw_text(instance)
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    page.fill("#f-location-city", "Nowhere")
    page.fill("#f-web-port", "70000")
    # The form knows the range: it names the field and sends nothing.
    form = save(panel)
    error = form.locator('[data-error-for="web.port"]')
    assert error.is_visible() and "65535" in error.text_content()
    assert posts == []
    # The server refuses it too (a page whose limits were removed): its message, there.
    page.evaluate("document.getElementById('f-web-port').removeAttribute('max')")
    save(panel)
    assert posts and error.is_visible()
    assert "web.port must be between 1 and 65535" in error.text_content()
    assert form.locator('[data-error-for="location.city"]').is_hidden()
    assert raw_text(instance) == before
    assert problems(watch) == []


def test_an_unknown_mapping_stays_selected_and_unchanged_by_another_display_save(
        page: Any, served: Any, instance: Any) -> None:
    _display, url = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/config/main", 400))
    panel = open_form(page, url, "display")
    assert page.input_value("#f-display-hardware-hardware_mapping") == "adafruit-hat"
    warning = '[data-field="display.hardware.hardware_mapping"] .sf-warning'
    assert panel.locator(warning).is_visible()

    page.fill("#f-display-hardware-pwm_bits", "9")
    form = save(panel)
    assert form.locator(".sf-status").text_content().startswith("Saved")
    assert "restart the display service" in form.locator(".sf-restart").text_content().lower()
    hardware = stored(instance)["display"]["hardware"]
    assert hardware["pwm_bits"] == 9 and hardware["hardware_mapping"] == "adafruit-hat"

    # A value the hardware rules refuse: named next to its field, nothing written.
    before = raw_text(instance)
    page.fill("#f-display-hardware-pixel_mapper_config", "Rotate:45")
    save(panel)
    error = form.locator('[data-error-for="display.hardware.pixel_mapper_config"]')
    assert error.is_visible() and "multiple of 90" in error.text_content()
    assert raw_text(instance) == before
    # Rows must be even: the form says so before the server is asked.
    page.fill("#f-display-hardware-pixel_mapper_config", "")
    page.fill("#f-display-hardware-rows", "33")
    save(panel)
    assert form.locator('[data-error-for="display.hardware.rows"]').is_visible()
    assert raw_text(instance) == before
    page.fill("#f-display-hardware-rows", "32")

    page.reload()
    panel.locator('[data-partial="display"]').wait_for()
    assert page.input_value("#f-display-hardware-hardware_mapping") == "adafruit-hat"
    assert page.input_value("#f-display-hardware-pwm_bits") == "9"
    assert problems(watch) == []


def test_the_brightness_slider_changes_the_live_brightness(page: Any, served: Any,
                                                          instance: Any) -> None:
    _display, url = served
    open_form(page, url, "display")
    page.fill("#f-brightness", "23")
    assert page.text_content("#brightness-value") == "23"
    wait_until(lambda: state(instance).get("brightness") == 23, timeout=10)
    assert stored(instance)["brightness"] == 23
    assert stored(instance)["display"]["hardware"]["brightness"] == 23
    assert "applied" in page.locator("form[data-live-brightness] .sf-status").text_content()


def test_durations_round_trip(page: Any, served: Any, instance: Any) -> None:
    _display, url = served
    panel = open_form(page, url, "durations")
    page.fill("#f-display_durations-still", "17")
    page.check("#f-still-dynamic_duration-enabled")
    page.fill("#f-still-dynamic_duration-max_duration_seconds", "45")
    form = save(panel)
    assert form.locator(".sf-status").text_content() == "Saved."
    config = stored(instance)
    assert config["display_durations"] == {"still": 17}
    assert config["still"]["dynamic_duration"] == {"enabled": True, "max_duration_seconds": 45}
    assert config["still"]["enabled"] is True
    page.reload()
    panel.locator('[data-partial="durations"]').wait_for()
    assert page.input_value("#f-display_durations-still") == "17"
    assert page.is_checked("#f-still-dynamic_duration-enabled")


def test_schedules_round_trip_and_a_refused_dim_brightness_is_shown(
        page: Any, served: Any, instance: Any) -> None:
    _display, url = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/config/dim-schedule", 400))
    panel = open_form(page, url, "schedule")
    assert page.is_hidden("#power-form .sf-days")
    page.select_option("#power-mode", "per-day")
    assert page.is_visible("#power-form .sf-days")
    page.uncheck("#power-monday-enabled")
    page.fill("#power-tuesday-start", "08:30")
    save(panel, "#power-form")
    assert panel.locator("#power-form .sf-status").text_content() == "Saved."
    schedule = stored(instance)["schedule"]
    assert schedule["mode"] == "per-day" and schedule["enabled"] is False
    assert schedule["days"]["monday"]["enabled"] is False
    assert schedule["days"]["tuesday"]["start_time"] == "08:30"

    before = raw_text(instance)
    page.check("#dim-enabled")
    page.fill("#dim-dim_brightness", "500")
    page.evaluate("document.getElementById('dim-dim_brightness').removeAttribute('max')")
    save(panel, "#dim-form")
    error = panel.locator('#dim-form [data-error-for="dim_brightness"]')
    assert error.is_visible() and "100" in error.text_content()
    assert raw_text(instance) == before
    page.fill("#dim-dim_brightness", "20")
    save(panel, "#dim-form")
    assert stored(instance)["dim_schedule"]["dim_brightness"] == 20
    assert stored(instance)["dim_schedule"]["enabled"] is True

    page.reload()
    panel.locator('[data-partial="schedule"]').wait_for()
    assert page.input_value("#power-mode") == "per-day"
    assert not page.is_checked("#power-monday-enabled")
    assert page.input_value("#power-tuesday-start") == "08:30"
    assert page.input_value("#dim-dim_brightness") == "20"
    assert problems(watch) == []


def test_several_panels_round_trip_and_a_bad_group_is_refused(page: Any, served: Any,
                                                              instance: Any) -> None:
    _display, url = served
    panel = open_form(page, url, "display")
    page.select_option("#f-sync-role", "follower")
    page.fill("#f-sync-group", "hall")
    page.select_option("#f-sync-follower_position", "left")
    save(panel)
    sync = stored(instance)["sync"]
    assert (sync["role"], sync["group"], sync["follower_position"]) == ("follower", "hall",
                                                                         "left")
    page.fill("#f-sync-group", "no spaces/here")
    form = save(panel)
    assert "Not saved" in form.locator(".sf-status").inner_text()
    assert "sync.group" in panel.locator('[data-error-for="sync.group"]').inner_text()
    assert stored(instance)["sync"]["group"] == "hall"


def test_vegas_round_trips(page: Any, served: Any, instance: Any) -> None:
    _display, url = served
    panel = open_form(page, url, "vegas")
    page.fill("#f-vegas_scroll-scroll_speed", "80")
    page.fill("#f-vegas_scroll-separator_color", "#ff8000")
    page.fill("#f-vegas_scroll-plugin_order", "still, other")
    page.uncheck("#f-vegas_scroll-live_interrupt")
    save(panel)
    vegas = stored(instance)["vegas_scroll"]
    assert vegas["scroll_speed"] == 80
    assert vegas["separator_color"] == [255, 128, 0]
    assert vegas["plugin_order"] == ["still", "other"]
    assert vegas["live_interrupt"] is False
    assert vegas["live_priority"] is True
    page.reload()
    panel.locator('[data-partial="vegas"]').wait_for()
    assert page.input_value("#f-vegas_scroll-separator_color") == "#ff8000"
    assert page.input_value("#f-vegas_scroll-plugin_order") == "still, other"


def test_the_config_editor_checks_syntax_and_saves_what_it_loaded(
        page: Any, served: Any, instance: Any) -> None:
    _display, url = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/config/raw/main", 400))
    panel = open_form(page, url, "config-editor")
    area = page.locator("#raw-config")
    wait_until(lambda: area.input_value().startswith("{"), timeout=10)
    loaded = area.input_value()
    assert json.loads(loaded) == stored(instance)

    # What GET returned goes back unchanged.
    before = stored(instance)
    save(panel, "form[data-raw-editor]")
    assert panel.locator(".sf-status").text_content().startswith("Saved")
    assert stored(instance) == before

    # A syntax error: line and column, and no request at all.
    broken = loaded.replace('"rows": 32,', '"rows": 32,,', 1)
    assert broken != loaded
    line = broken[:broken.index(",,")].count("\n") + 1
    area.fill(broken)
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    raw_before = raw_text(instance)
    panel.locator('button[type="submit"]').click()
    error = panel.locator("#raw-error")
    error.wait_for(state="visible")
    column = len(broken[:broken.index(",,")].rsplit("\n", 1)[-1]) + 2
    assert error.text_content() == f"Not valid JSON at line {line}, column {column}."
    assert caret(page) == [line, column]
    assert posts == [] and raw_text(instance) == raw_before

    # One near the end of a long file: the caret goes there and the line is scrolled in.
    lines = loaded.rstrip().split("\n")
    far = "\n".join([*lines[:-1], '  ,"oops" 1', lines[-1]])
    area.fill(far)
    area.evaluate("el => { el.scrollTop = 0; el.blur(); }")
    panel.locator('[data-raw-action="check"]').click()
    error.filter(has_text=f"line {len(lines)}, column 11.").wait_for()
    assert caret(page) == [len(lines), 11]
    top, height, line_height = area.evaluate(
        "el => [el.scrollTop, el.clientHeight, parseFloat(getComputedStyle(el).lineHeight)]")
    assert len(lines) > height / line_height  # the line was out of view at first
    assert top <= (len(lines) - 1) * line_height <= top + height - line_height

    # Valid JSON the server refuses: its message, nothing written.
    area.fill(loaded.replace('"brightness": 90', '"brightness": 500'))
    save(panel, "form[data-raw-editor]")
    assert "brightness" in error.text_content() and error.is_visible()
    assert raw_text(instance) == raw_before
    assert problems(watch) == []


@pytest.mark.parametrize("name,viewport", [("desktop", DESKTOP), ("phone", PHONE)],
                         ids=["desktop", "phone"])
def test_screenshots_of_each_form(browser: Any, served: Any, shoot: Any, name: str,
                                  viewport: dict[str, int]) -> None:
    _display, url = served
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    watch = Watch(page)
    page.goto(url)
    page.wait_for_selector("#display dt")
    for key in FORMS:
        panel = open_tab(page, key, phone=name == "phone")
        assert panel.locator(".sf-form").first.is_visible()
        page.wait_for_timeout(300)
        shoot(page, f"{name}-{key}")
    assert problems(watch) == []
    context.close()


def test_an_untouched_colour_or_time_the_browser_cannot_show_is_never_rewritten(
        page: Any, tmp_path: Any) -> None:
    made = make_instance(tmp_path)
    config = stored(made)
    config["vegas_scroll"]["separator_color"] = "red"
    config["vegas_scroll"]["background_color"] = [300, 0, 0]
    config["auto_update"]["time"] = "7:00"
    made.write_config(config)
    path = made.config_dir / "config.json"
    with running(made) as (display, _web, url):
        running_state(made, display)
        before = path.read_bytes()
        for key in ("general", "vegas"):
            panel = open_form(page, url, key)
            form = panel.locator("form[data-settings-form]").first
            form.locator('button[type="submit"]').click()
            form.locator(".sf-status").filter(has_text="changed").wait_for(timeout=10_000)
            assert form.locator(".sf-status").text_content() == "Nothing changed."
        assert path.read_bytes() == before
        # A save of another field leaves them exactly as stored.
        page.fill("#f-vegas_scroll-scroll_speed", "81")
        assert save(panel).locator(".sf-status").text_content() == "Saved."
        vegas = stored(made)["vegas_scroll"]
        assert vegas["scroll_speed"] == 81
        assert (vegas["separator_color"], vegas["background_color"]) == ("red", [300, 0, 0])
        assert stored(made)["auto_update"]["time"] == "7:00"
