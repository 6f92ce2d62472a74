"""Installed plugins, toggle, plugin config and schema routes."""

from __future__ import annotations

import json

import pytest

from shared import bus as keys


def test_installed_lists_plugins_without_icon(web):
    records = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    by_id = {record["id"]: record for record in records}
    assert set(by_id) == {"clock", "ticker"}
    assert by_id["clock"]["display_modes"] == ["clock", "clock_big"]
    assert all("icon" not in record for record in records)


def test_toggle_enables_and_notifies_the_display(web):
    response = web.client.post("/api/v3/plugins/toggle",
                               json={"plugin_id": "ticker", "enabled": True})
    assert response.status_code == 200, response.get_json()
    assert web.config()["ticker"]["enabled"] is True
    assert web.bus.read(keys.CONFIG_CHANGED)["sections"] == ["ticker"]
    records = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    assert {r["id"]: r["enabled"] for r in records}["ticker"] is True


@pytest.mark.parametrize(("body", "code"), [
    ({"plugin_id": "ticker", "enabled": "maybe"}, "INVALID_FIELD"),
    ({"plugin_id": "ghost", "enabled": True}, "UNKNOWN_PLUGIN"),
    ({"plugin_id": "a/b", "enabled": True}, "INVALID_PLUGIN_ID"),
])
def test_toggle_rejects_bad_input(web, body, code):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/plugins/toggle", json=body)
    assert response.status_code == 400
    assert response.get_json()["error_code"] == code
    assert web.paths.config_file.read_bytes() == before


def test_get_config_returns_the_prepared_config(web):
    stored = web.config()
    stored["clock"] = {"dynamic_duration": True, "interval": 5}
    web.paths.config_file.write_text(json.dumps(stored))
    data = web.client.get("/api/v3/plugins/config?plugin_id=clock").get_json()["data"]
    assert data["interval"] == 5
    assert data["title"] == "Hello"
    assert data["dynamic_duration"] == {"enabled": True, "max_duration_seconds": 120}


def test_get_config_of_unknown_plugin_is_404(web):
    response = web.client.get("/api/v3/plugins/config?plugin_id=ghost")
    assert response.status_code == 404


def test_post_config_merges_a_partial_body(web):
    web.client.post("/api/v3/plugins/config", json={"plugin_id": "clock", "title": "Hi"})
    response = web.client.post("/api/v3/plugins/config",
                               json={"plugin_id": "clock", "interval": 9})
    assert response.status_code == 200, response.get_json()
    clock = web.config()["clock"]
    assert (clock["title"], clock["interval"]) == ("Hi", 9)


def test_post_config_lists_every_failing_field(web):
    response = web.client.post("/api/v3/plugins/config", json={
        "plugin_id": "clock", "config": {"interval": 0, "title": 7}})
    assert response.status_code == 400
    body = response.get_json()
    fields = {error["field"] for error in body["details"]["errors"]["clock"]}
    assert fields == {"interval", "title"}
    assert "clock" not in web.config()


def test_post_config_accepts_a_form_post(web):
    response = web.client.post("/api/v3/plugins/config", data={
        "plugin_id": "clock", "interval": "12", "title": "Form"})
    assert response.status_code == 200, response.get_json()
    clock = web.config()["clock"]
    assert clock["interval"] == 12 and clock["title"] == "Form"
    assert clock["show_seconds"] is False  # unchecked checkbox


def test_form_post_with_a_non_number_names_the_field(web):
    response = web.client.post("/api/v3/plugins/config",
                               data={"plugin_id": "clock", "interval": "soon"})
    assert response.status_code == 400
    assert "interval" in response.get_json()["message"]


def test_get_schema(web):
    schema = web.client.get("/api/v3/plugins/schema?plugin_id=clock").get_json()["data"]
    assert schema["properties"]["interval"]["default"] == 30
    empty = web.client.get("/api/v3/plugins/schema?plugin_id=ticker").get_json()["data"]
    assert empty == {"type": "object", "properties": {}}


def test_listing_notices_new_plugins_and_changed_manifests(web):
    from tests.web_service.conftest import write_plugin

    assert len(web.client.get("/api/v3/plugins/installed").get_json()["data"]) == 2
    directory = write_plugin(web.paths.plugins_dir(), "weather")
    ids = {r["id"] for r in web.client.get("/api/v3/plugins/installed").get_json()["data"]}
    assert "weather" in ids
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["version"] = "2.0.0"
    (directory / "manifest.json").write_text(json.dumps(manifest))
    records = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    assert {r["id"]: r["version"] for r in records}["weather"] == "2.0.0"


def test_schema_is_found_when_the_folder_name_differs_from_the_id(web):
    from tests.web_service.conftest import write_plugin

    directory = write_plugin(web.paths.plugins_dir(), "radar")
    directory.rename(directory.with_name("radar-plugin-main"))
    schema = web.client.get("/api/v3/plugins/schema?plugin_id=radar").get_json()["data"]
    assert schema["properties"]["interval"]["default"] == 30
