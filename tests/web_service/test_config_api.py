"""GET/POST /config/main (save rules 1-3) and /config/raw/main."""

from __future__ import annotations

import json

from shared import bus as keys


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
    assert after["brightness"] == 42
    after["brightness"] = before["brightness"]
    assert after == before
    change = web.bus.read(keys.CONFIG_CHANGED)
    assert change["sections"] == ["brightness"]


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
