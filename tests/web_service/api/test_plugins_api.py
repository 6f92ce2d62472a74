"""Installed plugins, toggle, plugin config and schema routes."""

from __future__ import annotations

import json

import pytest

from shared.bus import core as keys


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


# -- broken plugin files and odd stored configs never answer 500 ------------------------

def _hand_edit(web, mutate) -> None:
    config = web.config()
    mutate(config)
    web.paths.config_file.write_text(json.dumps(config))


@pytest.mark.parametrize("value", ["x", [1], {"plugins_directory": 5}, None])
def test_listing_survives_a_stored_plugin_system_of_the_wrong_shape(web, value):
    _hand_edit(web, lambda c: c.update(plugin_system=value))
    response = web.client.get("/api/v3/plugins/installed")
    assert response.status_code == 200, response.get_json()
    assert {r["id"] for r in response.get_json()["data"]} == {"clock", "ticker"}
    schema = web.client.get("/api/v3/plugins/schema?plugin_id=clock")
    assert schema.status_code == 200, schema.get_json()


def test_schema_lookup_uses_the_cached_plugins_dir_not_a_fresh_config_read(web, monkeypatch):
    from shared.config.store import ConfigStore

    web.client.get("/api/v3/plugins/installed")
    reads = []
    original = ConfigStore.load_main
    monkeypatch.setattr(ConfigStore, "load_main",
                        lambda self: reads.append(1) or original(self))
    assert web.client.get("/api/v3/plugins/schema?plugin_id=clock").status_code == 200
    assert reads == []


def _break_schema(web, plugin_id: str, text: str) -> None:
    (web.paths.plugins_dir() / plugin_id / "config_schema.json").write_text(text)


BAD_JSON_SCHEMA = json.dumps({"type": "object",
                              "properties": {"interval": {"type": "integer", "minimum": "x"}}})


def test_a_schema_that_is_not_a_json_schema_is_a_plugin_named_4xx(web):
    _break_schema(web, "clock", BAD_JSON_SCHEMA)
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/plugins/config",
                               json={"plugin_id": "clock", "interval": 5})
    body = response.get_json()
    assert response.status_code == 422, body
    assert body["error_code"] == "INVALID_PLUGIN_SCHEMA"
    assert "clock" in body["message"] and "config_schema.json" in body["message"]
    assert "'x' is not of type 'number'" in body["message"]
    assert web.paths.config_file.read_bytes() == before
    assert web.bus.read(keys.CONFIG_CHANGED) is None
    records = {r["id"]: r for r in web.client.get("/api/v3/plugins/installed").get_json()["data"]}
    assert any("not a valid JSON Schema" in e for e in records["clock"]["errors"])


def test_validation_refuses_an_invalid_schema_by_plugin_name():
    from shared.config.prepare import validate_plugin_config
    from shared.errors import LedpanelError

    schema = json.loads(BAD_JSON_SCHEMA)
    with pytest.raises(LedpanelError) as caught:
        validate_plugin_config({"interval": 5}, schema, plugin_id="clock")
    assert caught.value.error_code == "INVALID_PLUGIN_SCHEMA"
    assert 400 <= caught.value.status < 500
    assert caught.value.message.startswith("clock: ")
    assert caught.value.details["plugin_id"] == "clock"


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", BAD_JSON_SCHEMA])
def test_a_broken_schema_never_blocks_raw_saves_of_other_sections(web, text):
    _hand_edit(web, lambda c: c.update(clock={"enabled": True, "interval": 5}))
    _break_schema(web, "clock", text)
    replacement = dict(web.config(), brightness=33)
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    assert web.config()["brightness"] == 33


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", BAD_JSON_SCHEMA])
def test_a_raw_save_changing_a_broken_plugins_section_names_plugin_and_file(web, text):
    _break_schema(web, "clock", text)
    before = web.paths.config_file.read_bytes()
    replacement = dict(web.config(), clock={"enabled": True, "interval": 5})
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    body = response.get_json()
    assert 400 <= response.status_code < 500, body
    assert body["error_code"] == "INVALID_PLUGIN_SCHEMA"
    assert "clock" in body["message"] and "config_schema.json" in body["message"]
    assert web.paths.config_file.read_bytes() == before


@pytest.mark.parametrize("text", ["{not json", BAD_JSON_SCHEMA])
def test_a_plugin_with_a_broken_schema_can_still_be_disabled(web, text):
    _hand_edit(web, lambda c: c.update(clock={"enabled": True, "interval": 5}))
    _break_schema(web, "clock", text)
    response = web.client.post("/api/v3/plugins/toggle",
                               json={"plugin_id": "clock", "enabled": False})
    assert response.status_code == 200, response.get_json()
    assert web.config()["clock"] == {"enabled": False, "interval": 5}
    assert web.bus.read(keys.CONFIG_CHANGED)["sections"] == ["clock"]


@pytest.mark.parametrize("path", ["/api/v3/plugins/config?plugin_id=clock",
                                  "/api/v3/plugins/schema?plugin_id=clock"])
def test_reading_a_broken_plugins_config_or_schema_is_a_4xx(web, path):
    _break_schema(web, "clock", "{not json")
    response = web.client.get(path)
    body = response.get_json()
    assert response.status_code == 422, body
    assert body["error_code"] == "INVALID_PLUGIN_SCHEMA"
    assert "clock" in body["message"] and "config_schema.json" in body["message"]


def test_get_config_walks_the_plugin_folders_once(web, monkeypatch):
    import web_service.plugin_catalog as catalog_module

    web.client.get("/api/v3/plugins/installed")
    walks = []
    original = catalog_module._tree_stats
    monkeypatch.setattr(catalog_module, "_tree_stats",
                        lambda directory: walks.append(directory) or original(directory))
    assert web.client.get("/api/v3/plugins/config?plugin_id=clock").status_code == 200
    # One refresh: the plugins directory and the development directory, once each.
    assert len(walks) == 2


def test_a_record_searches_for_its_schema_file_once(web, monkeypatch):
    import shared.plugin_system.schema as schema_module
    from shared.plugin_system.discovery import read_plugin
    from shared.plugin_system.records import plugin_record

    looked = []
    original = schema_module.Path.is_file

    def is_file(path):
        if path.name == "config_schema.json":
            looked.append(path)
        return original(path)

    monkeypatch.setattr(schema_module.Path, "is_file", is_file)
    info = read_plugin(web.paths.plugins_dir() / "clock")
    record = plugin_record(info, web.paths, {}, web.paths.plugins_dir())
    assert record["has_config_schema"] is True and record["errors"] == []
    assert len(looked) == len(set(looked))


@pytest.mark.parametrize("text", ["{not json", BAD_JSON_SCHEMA])
def test_other_save_paths_can_switch_a_broken_plugin_off_too(web, text):
    _hand_edit(web, lambda c: c.update(clock={"enabled": True, "interval": 5}))
    _break_schema(web, "clock", text)
    response = web.client.post("/api/v3/config/main", json={"clock": {"enabled": False}})
    assert response.status_code == 200, response.get_json()
    assert web.config()["clock"] == {"enabled": False, "interval": 5}
    replacement = dict(web.config(), clock={"enabled": True, "interval": 5})
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    assert web.config()["clock"] == {"enabled": True, "interval": 5}
    # Anything more than the switch is still refused, naming the plugin.
    for path, body in (("/api/v3/config/main", {"clock": {"enabled": False, "interval": 6}}),
                       ("/api/v3/config/raw/main",
                        dict(web.config(), clock={"enabled": False}))):
        response = web.client.post(path, json=body)
        assert response.status_code == 422, response.get_json()
        assert response.get_json()["error_code"] == "INVALID_PLUGIN_SCHEMA"
    assert web.config()["clock"] == {"enabled": True, "interval": 5}
