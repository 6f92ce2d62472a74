"""The ``rotation_order`` setting through every save path: JSON, form and raw editor."""

from __future__ import annotations

import json

import pytest

from shared.bus import core as keys
from shared.config.reserved import is_plugin_key
from shared.config.rotation_order import MAX_ITEMS


def _backups(web):
    directory = web.paths.backups_dir
    return sorted(directory.iterdir()) if directory.exists() else []


def _refused(web, response):
    assert response.status_code == 400, response.get_json()
    body = response.get_json()
    assert body["status"] == "error"
    assert body["details"]["field"] == "rotation_order"
    assert body["message"].startswith("rotation_order ")
    assert "Traceback" not in body["message"]
    return body


def test_rotation_order_is_a_core_setting_in_a_fresh_config(web):
    assert not is_plugin_key("rotation_order")
    assert web.config()["rotation_order"] == []


def test_a_json_save_stores_the_order_and_announces_it(web):
    response = web.client.post("/api/v3/config/main",
                               json={"rotation_order": ["ticker", "gone", "clock"]})
    assert response.status_code == 200, response.get_json()
    assert web.config()["rotation_order"] == ["ticker", "gone", "clock"]
    assert web.bus.read(keys.CONFIG_CHANGED)["sections"] == ["rotation_order"]
    data = web.client.get("/api/v3/config/main").get_json()["data"]
    assert data["rotation_order"] == ["ticker", "gone", "clock"]
    # The installed list does not take the setting for a plugin.
    installed = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    ids = {p["id"] for p in (installed["plugins"] if isinstance(installed, dict) else installed)}
    assert ids == {"clock", "ticker"}


@pytest.mark.parametrize(("value", "words"), [
    ({"clock": 1}, "must be a list"),
    ([1, "clock"], "item 0 must be a plugin id (text), not a number"),
    (["clock", None], "item 1 must be a plugin id (text), not null"),
    (["clock", "ticker", "clock"], "lists 'clock' twice"),
    (["../etc"], "item 0 ('../etc') is not a plugin id"),
    (["a/b"], "item 0 ('a/b') is not a plugin id"),
    ([""], "item 0 ('') is not a plugin id"),
    ([f"p{i}" for i in range(MAX_ITEMS + 1)], f"may list at most {MAX_ITEMS} plugins"),
])
def test_a_bad_order_is_refused_naming_the_setting_and_nothing_is_written(web, value, words):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    body = _refused(web, web.client.post("/api/v3/config/main", json={"rotation_order": value}))
    assert words in body["message"]
    replacement = {**web.config(), "rotation_order": value}
    raw = _refused(web, web.client.post("/api/v3/config/raw/main", json=replacement))
    assert words in raw["message"]
    assert web.paths.config_file.read_bytes() == before
    assert _backups(web) == backups


def test_the_raw_editor_refuses_a_value_that_is_not_a_list(web):
    replacement = {**web.config(), "rotation_order": "clock,ticker"}
    body = _refused(web, web.client.post("/api/v3/config/raw/main", json=replacement))
    assert "must be a list" in body["message"]
    assert web.config()["rotation_order"] == []


def test_the_full_limit_of_ids_is_accepted(web):
    order = [f"p{i}" for i in range(MAX_ITEMS)]
    response = web.client.post("/api/v3/config/main", json={"rotation_order": order})
    assert response.status_code == 200, response.get_json()
    assert web.config()["rotation_order"] == order


def test_a_raw_editor_save_with_an_order_round_trips(web):
    replacement = {**web.config(), "rotation_order": ["ticker", "clock"]}
    response = web.client.post("/api/v3/config/raw/main", json=replacement)
    assert response.status_code == 200, response.get_json()
    assert web.config()["rotation_order"] == ["ticker", "clock"]
    text = web.client.get("/api/v3/config/raw/main").get_json()["data"]["content"]
    assert json.loads(text)["rotation_order"] == ["ticker", "clock"]
    # A later save of something else keeps it.
    response = web.client.post("/api/v3/config/main", json={"brightness": 40})
    assert response.status_code == 200, response.get_json()
    assert web.config()["rotation_order"] == ["ticker", "clock"]


def test_form_saves_store_and_refuse_like_json_saves(web):
    response = web.client.post("/api/v3/config/main", data={
        "__form_section": "rotation_order", "rotation_order": "ticker,clock"})
    assert response.status_code == 200, response.get_json()
    assert web.config()["rotation_order"] == ["ticker", "clock"]
    response = web.client.post("/api/v3/config/main", json={
        "__form_section": "rotation_order", "rotation_order": ["clock", "clock"]})
    assert "lists 'clock' twice" in _refused(web, response)["message"]
    response = web.client.post("/api/v3/config/main", data={
        "__form_section": "rotation_order", "rotation_order": "clock,a\\b"})
    assert "is not a plugin id" in _refused(web, response)["message"]
    assert web.config()["rotation_order"] == ["ticker", "clock"]


def test_the_durations_tab_lists_plugins_in_the_saved_order(web):
    def shown_ids() -> list[str]:
        html = web.client.get("/v3/partials/durations").get_data(as_text=True)
        return [part.split('"', 1)[0] for part in html.split('data-plugin="')[1:]]

    assert shown_ids() == ["clock", "ticker"]
    web.client.post("/api/v3/config/main", json={"rotation_order": ["gone", "ticker"]})
    assert shown_ids() == ["ticker", "clock"]
    html = web.client.get("/v3/partials/durations").get_data(as_text=True)
    assert 'aria-label="Move Ticker up"' in html
    # What a save sends back unchanged: the shown ids, then the stored ones not installed.
    assert "value=\"[&#34;ticker&#34;, &#34;clock&#34;, &#34;gone&#34;]\"" in html
