"""The ``starlark-apps`` section: settings and entries read from stored garbage, PATCH
bodies checked, and every change saved through the one config save path."""

from __future__ import annotations

import pytest

from shared.bus import core as keys
from shared.errors import ValidationError
from tests.web_service.conftest import WebEnv, write_plugin
from web_service.starlark import config_entry as entries

HELLO = "def main(config):\n    return None\n"


def test_stored_garbage_reads_as_the_defaults() -> None:
    assert entries.settings_of({"render_interval": 5, "render_seconds": "3",
                                "scale": "huge"}) == {
        "render_interval": 300, "render_seconds": 3.0, "scale": "magnify"}
    assert entries.settings_of({"render_interval": 60, "render_seconds": 0.5,
                                "scale": "2x"})["render_interval"] == 60
    for stored in ({"apps": "x"}, {"apps": {"a": []}}, {"apps": {"a": {
            "enabled": "no", "duration": True, "revision": "7", "config": {"k": 1}}}}):
        assert entries.entry_of(stored, "a") == {"enabled": True, "duration": 15,
                                                 "revision": 0, "config": {}}


@pytest.mark.parametrize(("body", "field"), [
    ({"duration": 4}, "duration"), ({"duration": 3601}, "duration"),
    ({"duration": True}, "duration"), ({"duration": float("nan")}, "duration"),
    ({"duration": 20.5}, "duration"),
    ({"enabled": 1}, "enabled"), ({"config": []}, "config"),
    ({"config": {"k": {"deep": 1}}}, "config.k"), ({"config": {"": "x"}}, "config"),
    ({"config": {"k": "x" * 10_001}}, "config.k"), ({"revision": 5}, "revision"),
])
def test_a_patch_out_of_bounds_names_its_field(body: dict, field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        entries.checked_patch(body)
    assert refused.value.details == {"field": field}


def test_a_patch_merges_config_and_null_removes_a_setting() -> None:
    entry = {"enabled": True, "duration": 15, "revision": 3, "config": {"a": "1", "b": "2"}}
    patch = entries.checked_patch({"duration": 20.0, "config": {"a": None, "c": 2.5,
                                                                "d": False}})
    assert entries.patched_entry(entry, patch) == {
        "enabled": True, "duration": 20, "revision": 3,
        "config": {"b": "2", "c": "2.5", "d": "false"}}
    assert entry["config"] == {"a": "1", "b": "2"}


def test_a_revision_always_grows() -> None:
    assert entries.new_revision(0) > 1_700_000_000_000
    assert entries.new_revision(10**15) == 10**15 + 1


def test_entries_are_saved_through_the_save_path_and_the_plugin_schema_checks_them(
        web: WebEnv) -> None:
    write_plugin(web.paths.plugins_dir(), "starlark-apps", schema={
        "type": "object", "properties": {"apps": {"type": "object", "additionalProperties": {
            "type": "object", "properties": {"duration": {"type": "integer",
                                                          "maximum": 600}}}}}})
    answer = web.client.post("/api/v3/starlark/apps", json={"app_id": "a", "source": HELLO})
    assert answer.status_code == 201, answer.get_json()
    assert web.bus.read(keys.CONFIG_CHANGED)["sections"] == ["starlark-apps"]
    refused = web.client.patch("/api/v3/starlark/apps/a", json={"duration": 900})
    assert refused.status_code == 400, refused.get_json()
    assert "600" in refused.get_json()["message"]
    assert web.config()["starlark-apps"]["apps"]["a"]["duration"] == 15
    web.client.post("/api/v3/starlark/apps", json={"app_id": "b", "source": HELLO})
    assert web.client.delete("/api/v3/starlark/apps/a").status_code == 200
    assert list(web.config()["starlark-apps"]["apps"]) == ["b"]


def test_a_new_app_whose_entry_is_refused_is_not_left_installed(web: WebEnv) -> None:
    write_plugin(web.paths.plugins_dir(), "starlark-apps", schema={
        "type": "object", "properties": {"apps": {"type": "object", "maxProperties": 1}}})
    first = web.client.post("/api/v3/starlark/apps", json={"app_id": "a", "source": HELLO})
    assert first.status_code == 201, first.get_json()
    refused = web.client.post("/api/v3/starlark/apps", json={"app_id": "b", "source": HELLO})
    assert refused.status_code == 400, refused.get_json()
    listed = web.client.get("/api/v3/starlark/apps").get_json()["data"]
    assert [app["id"] for app in listed] == ["a"]
    assert list(web.config()["starlark-apps"]["apps"]) == ["a"]
