"""GET/POST /config/main (save rules 1-3) and /config/raw/main."""

from __future__ import annotations

import json

import pytest

from shared.bus import core as keys
from shared.config.template import load_template


def _backups(web):
    directory = web.paths.backups_dir
    return sorted(directory.iterdir()) if directory.exists() else []


def test_get_main_returns_the_stored_config_without_secrets(web):
    web.paths.secrets_file.write_text(json.dumps({"clock": {"api_key": "s3cret"}}))
    data = web.client.get("/api/v3/config/main").get_json()["data"]
    assert data["display"]["hardware"]["hardware_mapping"] == "vendor-hat"
    assert "s3cret" not in json.dumps(data)


def test_json_save_changes_only_the_keys_it_sends(web):
    before = web.config()
    response = web.client.post("/api/v3/config/main", json={"brightness": 42})
    assert response.status_code == 200, response.get_json()
    after = web.config()
    assert after["brightness"] == after["display"]["hardware"]["brightness"] == 42
    after["brightness"] = after["display"]["hardware"]["brightness"] = before["brightness"]
    assert after == before
    change = web.bus.read(keys.CONFIG_CHANGED)
    assert change["sections"] == ["brightness", "display"]


def test_json_save_does_not_treat_a_missing_checkbox_as_unchecked(web):
    web.client.post("/api/v3/config/main", json={"display": {"use_short_date_format": True}})
    web.client.post("/api/v3/config/main", json={"display": {"hardware": {"rows": 16}}})
    display = web.config()["display"]
    assert display["use_short_date_format"] is True
    assert display["hardware"]["rows"] == 16


def test_form_save_treats_a_missing_checkbox_as_unchecked(web):
    web.client.post("/api/v3/config/main", json={"display": {"use_short_date_format": True}})
    response = web.client.post("/api/v3/config/main", data={
        "__form_section": "display", "display.hardware.rows": "16"})
    assert response.status_code == 200, response.get_json()
    display = web.config()["display"]
    assert display["use_short_date_format"] is False
    assert display["hardware"]["rows"] == 16
    assert "__form_section" not in web.config()


def test_legacy_plugin_system_toggle_alone_is_not_a_general_save(web):
    web.client.post("/api/v3/config/main", json={"display": {"use_short_date_format": True}})
    response = web.client.post("/api/v3/config/main",
                               data={"plugin_system.auto_discover": "on"})
    assert response.status_code == 200, response.get_json()
    assert web.config()["display"]["use_short_date_format"] is True


def test_one_invalid_plugin_section_rejects_the_whole_save(web):
    before = web.paths.config_file.read_bytes()
    backups_before = _backups(web)
    response = web.client.post("/api/v3/config/main", json={
        "brightness": 10, "clock": {"interval": "often"}, "ticker": {"enabled": True}})
    assert response.status_code == 400
    body = response.get_json()
    assert body["error_code"] == "INVALID_PLUGIN_CONFIG"
    assert "clock" in body["message"] and "interval" in body["message"]
    assert web.paths.config_file.read_bytes() == before
    assert _backups(web) == backups_before
    assert web.bus.read(keys.CONFIG_CHANGED) is None


def test_plugin_sections_are_prepared_and_secrets_split_out(web):
    response = web.client.post("/api/v3/config/main", json={
        "clock": {"enabled": True, "api_key": "k-123", "dynamic_duration": True}})
    assert response.status_code == 200, response.get_json()
    clock = web.config()["clock"]
    assert "api_key" not in clock
    assert clock["dynamic_duration"] == {"enabled": True, "max_duration_seconds": 120}
    assert web.secrets()["clock"]["api_key"] == "k-123"
    assert "k-123" not in web.paths.config_file.read_text()


def test_every_save_is_backed_up(web):
    web.client.post("/api/v3/config/main", json={"brightness": 11})
    web.client.post("/api/v3/config/main", json={"brightness": 12})
    backups = _backups(web)
    assert len(backups) == 2
    assert json.loads(backups[-1].read_text())["brightness"] == 11


def test_non_object_body_answers_400(web):
    response = web.client.post("/api/v3/config/main", data="[1, 2]",
                               content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error_code"] == "INVALID_JSON"


def test_raw_get_returns_the_file_text(web):
    data = web.client.get("/api/v3/config/raw/main").get_json()["data"]
    assert json.loads(data["content"]) == web.config()


def test_raw_post_replaces_the_whole_file_after_a_backup(web):
    replacement = web.config()
    replacement["brightness"] = 5
    del replacement["location"]
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    replacement["display"]["hardware"]["brightness"] = 5  # one setting, two keys
    assert web.config() == replacement
    assert len(_backups(web)) == 1
    assert "brightness" in web.bus.read(keys.CONFIG_CHANGED)["sections"]


def test_raw_post_of_text_that_is_not_json_names_the_position(web):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/raw/main", data='{"a": 1,,}',
                               content_type="text/plain")
    assert response.status_code == 400
    assert "line 1" in response.get_json()["message"]
    assert web.paths.config_file.read_bytes() == before


def test_raw_post_must_be_an_object(web):
    response = web.client.post("/api/v3/config/raw/main", json=[1, 2, 3])
    assert response.status_code == 400
    assert response.get_json()["error_code"] == "INVALID_CONFIG"


def test_raw_post_with_an_invalid_plugin_section_is_rejected(web):
    replacement = web.config()
    replacement["clock"] = {"interval": 0}
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 400
    assert web.paths.config_file.read_bytes() == before


def _unchanged(web, before, backups_before):
    assert web.paths.config_file.read_bytes() == before
    assert _backups(web) == backups_before


@pytest.mark.parametrize(("body", "code", "message"), [
    ({"clock": 5}, "INVALID_PLUGIN_CONFIG", "clock: a plugin section must be a JSON object"),
    ({"brigthness": 70}, "UNKNOWN_KEY",
     "brigthness: not a core setting or an installed plugin; did you mean 'brightness'?"),
    ({"nosuchplugin": [1, 2]}, "UNKNOWN_KEY",
     "nosuchplugin: not a core setting or an installed plugin"),
    ({"clokc": {"interval": 5}}, "UNKNOWN_PLUGIN",
     "clokc: no plugin of that name is installed; did you mean 'clock'?"),
    ({"nosuchplugin": {"a": 1}}, "UNKNOWN_PLUGIN", "nosuchplugin: no plugin of that name is "
                                                   "installed"),
])
def test_top_level_keys_that_are_neither_core_nor_a_plugin_section_are_named(
        web, body, code, message):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    response = web.client.post("/api/v3/config/main", json=body)
    assert response.status_code == 400, body
    assert response.get_json()["error_code"] == code
    assert response.get_json()["message"] == message
    if code == "UNKNOWN_KEY":  # the raw editor says the same
        replacement = {**web.config(), **body}
        answer = web.client.post("/api/v3/config/raw/main", json=replacement).get_json()
        assert (answer["error_code"], answer["message"]) == (code, message)
    _unchanged(web, before, backups)


def test_form_fields_outside_core_and_installed_plugins_are_refused(web):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    for data, field in (({"weird[]": "1"}, "weird"), ({"nosuchplugin.enabled": "on"},
                                                     "nosuchplugin.enabled"),
                        ({"display.hardware.rows x": "16"}, "display.hardware.rows x")):
        response = web.client.post("/api/v3/config/main", data=data)
        assert response.status_code == 400, data
        body = response.get_json()
        assert body["details"]["field"] == field
        assert field in body["message"]
    assert "weird" not in web.config()
    _unchanged(web, before, backups)
    response = web.client.post("/api/v3/config/main", data={"clock.title": "Hi"})
    assert response.status_code == 200, response.get_json()
    assert web.config()["clock"]["title"] == "Hi"


def test_huge_and_non_finite_numbers_answer_400(web):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    for body, field in (({"brightness": 10**40}, "brightness"),
                        ({"vegas_scroll": {"scroll_delay": 10**40}},
                         "vegas_scroll.scroll_delay")):
        response = web.client.post("/api/v3/config/main", json=body)
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["details"]["field"] == field
    response = web.client.post("/api/v3/config/main", data={"vegas_scroll.scroll_delay": "inf"})
    assert response.status_code == 400
    assert "vegas_scroll.scroll_delay" in response.get_json()["message"]
    _unchanged(web, before, backups)


def test_empty_saves_write_nothing_and_keep_the_backups(web):
    web.client.post("/api/v3/config/main", json={"brightness": 11})
    backups = _backups(web)
    inode = web.paths.config_file.stat().st_ino
    for _ in range(6):
        response = web.client.post("/api/v3/config/main", json={})
        assert response.status_code == 200
        assert response.get_json()["data"]["changed_sections"] == []
    response = web.client.post("/api/v3/config/main", json={"brightness": 11})
    assert response.status_code == 200
    assert _backups(web) == backups and len(backups) == 1
    assert web.paths.config_file.stat().st_ino == inode


def test_out_of_range_core_settings_answer_400_naming_the_range(web):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    for value in (500, -5, 0):
        response = web.client.post("/api/v3/config/main", json={"brightness": value})
        assert response.status_code == 400
        body = response.get_json()
        assert body["error_code"] == "OUT_OF_RANGE"
        assert body["message"] == f"brightness must be between 1 and 100 (got {value})"
    for data in ({"display.hardware.pwm_bits": "12"}, {"web.port": "70000"},
                 {"display.runtime.gpio_slowdown": "11"}, {"display_durations.clock": "0"}):
        response = web.client.post("/api/v3/config/main", data=data)
        assert response.status_code == 400, data
        assert response.get_json()["details"]["field"] == next(iter(data))
    replacement = web.config()
    replacement["display"]["hardware"]["pwm_lsb_nanoseconds"] = 10
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 400
    assert "display.hardware.pwm_lsb_nanoseconds" in response.get_json()["message"]
    _unchanged(web, before, backups)


def test_raw_editor_restores_sections_of_uninstalled_plugins(web):
    replacement = web.config()
    replacement["uninstalled"] = {"enabled": True, "interval": "legacy"}
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    assert web.config()["uninstalled"] == {"enabled": True, "interval": "legacy"}
    response = web.client.post("/api/v3/config/main", json={"uninstalled": {"enabled": False}})
    assert response.status_code == 400
    assert response.get_json()["error_code"] == "UNKNOWN_PLUGIN"


def test_json_list_for_a_single_value_answers_400(web):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/main", json={"brightness": [5]})
    assert response.status_code == 400
    body = response.get_json()
    assert body["details"]["field"] == "brightness" and "not a list" in body["message"]
    assert web.paths.config_file.read_bytes() == before


def test_raw_get_of_a_missing_config_is_the_template(web):
    web.paths.config_file.unlink()
    response = web.client.get("/api/v3/config/raw/main")
    assert response.status_code == 200
    assert json.loads(response.get_json()["data"]["content"]) == load_template()


def test_raw_get_of_a_config_that_is_not_utf8_names_the_problem(web):
    web.paths.config_file.write_bytes(b'{"timezone": "M\xfcnchen"}')
    body = web.client.get("/api/v3/config/raw/main").get_json()
    assert body["error_code"] == "CONFIG_INVALID_JSON"
    assert "config.json is not UTF-8 text" in body["message"]
    assert "line 1, column 16" in body["message"]


def test_raw_save_keeps_an_unchanged_legacy_scalar_key(web):
    stored = web.config()
    stored["web_display_autostart"] = True  # written by an older version
    web.paths.config_file.write_text(json.dumps(stored))
    replacement = dict(stored, brightness=33)
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    assert web.config()["brightness"] == 33


def test_raw_save_validates_plugin_sections_with_their_stored_secrets(web):
    schema = {"type": "object", "required": ["api_key"],
              "properties": {"api_key": {"type": "string", "x-secret": True}}}
    from tests.web_service.conftest import write_plugin

    write_plugin(web.paths.plugins_dir(), "weather", schema=schema)
    web.paths.secrets_file.write_text(json.dumps({"weather": {"api_key": "k"}}))
    replacement = dict(web.config(), weather={"enabled": True})
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()


def test_dim_brightness_out_of_range_is_refused(web):
    response = web.client.post("/api/v3/config/main", json={"dim_schedule": {"dim_brightness": 0}})
    assert response.status_code == 400
    assert "dim_brightness" in response.get_json()["message"]


@pytest.mark.parametrize(("body", "field"), [
    ({"vegas_scroll": {"scroll_speed": -1}}, "vegas_scroll.scroll_speed"),
    ({"vegas_scroll": {"scroll_delay": 0}}, "vegas_scroll.scroll_delay"),
    ({"vegas_scroll": {"buffer_ahead": 100000}}, "vegas_scroll.buffer_ahead"),
    ({"vegas_scroll": {"default_vegas_mode": "sideways"}}, "vegas_scroll.default_vegas_mode"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
    ({"timezone": "../../etc/passwd"}, "timezone"),
])
def test_values_the_display_would_silently_replace_are_refused(web, body, field):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/main", json=body)
    assert response.status_code == 400, response.get_json()
    assert field in response.get_json()["message"]
    assert web.paths.config_file.read_bytes() == before


def test_a_known_timezone_is_accepted(web):
    response = web.client.post("/api/v3/config/main", json={"timezone": "Europe/Berlin"})
    assert response.status_code == 200, response.get_json()
    assert web.config()["timezone"] == "Europe/Berlin"


# -- raw saves check the shape of the core keys they change ---------------------------

@pytest.mark.parametrize(("change", "field"), [
    ({"plugin_system": "x"}, "plugin_system"),
    ({"plugin_system": [1]}, "plugin_system"),
    ({"plugin_system": {"plugins_directory": 5}}, "plugin_system.plugins_directory"),
    ({"schedule": "x"}, "schedule"),
    ({"display": "x"}, "display"),
    ({"vegas_scroll": "x"}, "vegas_scroll"),
    ({"web": "x"}, "web"),
    ({"brightness": "loud"}, "brightness"),
    ({"brightness": True}, "brightness"),
    ({"display_durations": {"clock": "long"}}, "display_durations.clock"),
])
def test_raw_save_refuses_core_keys_of_the_wrong_type(web, change, field):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/raw/main", json=dict(web.config(), **change))
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["details"]["field"] == field
    assert field in body["message"]
    assert web.paths.config_file.read_bytes() == before
    assert web.bus.read(keys.CONFIG_CHANGED) is None
    assert web.client.get("/api/v3/plugins/installed").status_code == 200


@pytest.mark.parametrize(("section", "change", "field"), [
    ("schedule", {"days": 5}, "schedule.days"),
    ("dim_schedule", {"enabled": "yes"}, "dim_schedule.enabled"),
    ("schedule", {"days": {"someday": {"enabled": True}}}, "schedule.days.someday"),
])
def test_raw_save_checks_the_schedule_sections_it_changes(web, section, change, field):
    before = web.paths.config_file.read_bytes()
    replacement = web.config()
    replacement[section].update(change)
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["details"]["field"] == field
    assert web.paths.config_file.read_bytes() == before


def test_raw_save_keeps_a_stored_wrong_type_it_does_not_change(web):
    stored = web.config()
    stored["web"] = "x"  # a hand edit
    web.paths.config_file.write_text(json.dumps(stored))
    response = web.client.post("/api/v3/config/raw/main", json=dict(stored, brightness=33))
    assert response.status_code == 200, response.get_json()
    assert web.config()["web"] == "x" and web.config()["brightness"] == 33


# -- config.json is parsed once per change -------------------------------------------

def _age(path, seconds: float = 60.0) -> None:
    """Date a file back, as a file saved a while ago is (a fresh one is re-read anyway)."""
    import os
    import time

    stamp = time.time() - seconds
    os.utime(path, (stamp, stamp))


def _count_config_reads(web, monkeypatch) -> list[object]:
    import shared.config.store as store_module

    reads: list[object] = []
    original = store_module.read_json_file

    def spy(path, what):
        if path == web.paths.config_file:
            reads.append(path)
        return original(path, what)

    monkeypatch.setattr(store_module, "read_json_file", spy)
    return reads


@pytest.mark.parametrize("path", ["/api/v3/config/main", "/api/v3/config/schedule",
                                  "/api/v3/config/dim-schedule"])
def test_repeated_gets_parse_the_config_once(web, monkeypatch, path):
    _age(web.paths.config_file)
    reads = _count_config_reads(web, monkeypatch)
    first = [web.client.get(path).get_json() for _ in range(3)]
    assert len(reads) == 1
    assert first[0] == first[1] == first[2]


def test_a_changed_config_is_never_served_stale(web, monkeypatch):
    _age(web.paths.config_file, 120)
    assert web.client.get("/api/v3/config/main").get_json()["data"]["brightness"] == 90
    # A hand edit in place: same inode, same size, an older timestamp than now.
    text = web.paths.config_file.read_text()
    web.paths.config_file.write_text(text.replace('"brightness": 90', '"brightness": 91'))
    _age(web.paths.config_file, 60)
    assert web.client.get("/api/v3/config/main").get_json()["data"]["brightness"] == 91
    # An edit within the file system's timestamp granularity is seen too.
    web.paths.config_file.write_text(text.replace('"brightness": 90', '"brightness": 92'))
    assert web.client.get("/api/v3/config/main").get_json()["data"]["brightness"] == 92
    web.paths.config_file.write_text(text.replace('"brightness": 90', '"brightness": 93'))
    assert web.client.get("/api/v3/config/main").get_json()["data"]["brightness"] == 93
    schedule = web.client.get("/api/v3/config/schedule").get_json()["data"]
    assert schedule["mode"] == "global"


def test_post_schedule_reads_the_config_once(web, monkeypatch):
    reads = _count_config_reads(web, monkeypatch)
    response = web.client.post("/api/v3/config/schedule", json={"start_time": "06:15"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["data"]["start_time"] == "06:15"
    assert len(reads) == 1
    assert web.config()["schedule"]["start_time"] == "06:15"
