"""Of-the-day routes: nothing outside the plugin's ``of_the_day/`` folder is ever read,
written or removed, whatever name, plugin id, symlink or site a request brings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.conftest import write_plugin
from tests.web_service.of_the_day_helpers import (
    DELETE,
    KEPT,
    OTD_SCHEMA,
    UPLOAD,
    WORDS,
    as_bytes,
    category,
    make_data_dir,
    make_outside,
    refused,
    stored,
    untouched,
    upload,
)


@pytest.fixture
def data_dir(web) -> Path:
    """The of-the-day plugin's data folder, with one file the plugin already reads."""
    return make_data_dir(web, OTD_SCHEMA)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside every plugin folder, holding a secret and a victim data file."""
    return make_outside(tmp_path)


BAD_NAMES = ["..", ".", "../victim.json", "../../outside/victim.json", "/OUTSIDE/victim.json",
             "a/../../victim.json", "..\\victim.json", "victim.json\x00", "x\x00/../v.json",
             ".hidden.json", "..%2Fvictim.json"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_an_uploaded_file_name_that_is_not_one_plain_name_is_refused(web, data_dir, outside,
                                                                     name):
    name = name.replace("/OUTSIDE", str(outside))
    refused(upload(web.client, [(name, as_bytes(WORDS))]), 400, "INVALID_PATH")
    assert stored(data_dir) == {"kept.json": KEPT}
    untouched(outside)
    assert not (data_dir.parent / "victim.json").exists()


def test_an_encoded_name_in_a_body_is_not_decoded_and_stays_inside(web, data_dir, outside):
    name = "%2e%2e%2f%2e%2e%2fvictim.json"  # bodies are not URL-decoded: one plain name
    assert upload(web.client, [(name, as_bytes(WORDS))]).status_code == 200
    assert stored(data_dir) == {name: WORDS, "kept.json": KEPT}
    assert web.client.post(DELETE, json={"filename": name}).status_code == 200
    assert stored(data_dir) == {"kept.json": KEPT}
    untouched(outside)


@pytest.mark.parametrize("name", BAD_NAMES)
def test_delete_refuses_every_name_that_is_not_one_plain_name(web, data_dir, outside, name):
    (data_dir.parent / "victim.json").write_text("{}")  # one level up, in the plugin
    name = name.replace("/OUTSIDE", str(outside))
    answers = [web.client.post(DELETE, json={"filename": name}),
               web.client.post(DELETE, json={"file_id": name.removesuffix(".json")}),
               web.client.delete(DELETE, query_string={"name": name})]
    for answer in answers:
        assert answer.status_code in (400, 404), answer.get_json()
        assert answer.get_json()["error_code"] in ("INVALID_PATH", "UNKNOWN_DATA_FILE")
    untouched(outside)
    assert (data_dir.parent / "victim.json").exists()
    assert stored(data_dir) == {"kept.json": KEPT}


@pytest.mark.parametrize("query", ["filename=..%2Fvictim.json",
                                   "filename=%2e%2e%2f%2e%2e%2foutside%2fvictim.json",
                                   "filename=%2Ftmp%2Fvictim.json", "filename=%2e%2e",
                                   "filename=kept.json%00", "plugin_id=%2e%2e&filename=x.json",
                                   "plugin_id=..%2Fof-the-day&filename=kept.json"])
def test_url_encoded_names_in_the_query_are_decoded_and_refused(web, data_dir, outside,
                                                                query):
    answer = web.client.delete(f"{DELETE}?{query}")
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["error_code"] in ("INVALID_PATH", "INVALID_PLUGIN_ID")
    untouched(outside)
    assert stored(data_dir) == {"kept.json": KEPT}


@pytest.mark.parametrize("plugin_id", ["..", ".", "../of-the-day", "of-the-day/..", "/etc",
                                       "of-the-day\x00", "a\\b", ".hidden"])
def test_a_plugin_id_that_is_not_one_plain_name_is_refused(web, data_dir, outside,
                                                           plugin_id):
    answers = [upload(web.client, [("w.json", as_bytes(WORDS))], plugin_id=plugin_id),
               web.client.post(DELETE, json={"plugin_id": plugin_id, "filename": "kept.json"}),
               web.client.delete(DELETE, query_string={"plugin_id": plugin_id,
                                                       "filename": "kept.json"})]
    for answer in answers:
        refused(answer, 400, "INVALID_PLUGIN_ID")
    untouched(outside)
    assert stored(data_dir) == {"kept.json": KEPT}


def test_a_symlink_in_the_data_folder_is_never_followed(web, data_dir, outside):
    (data_dir / "victim.json").symlink_to(outside / "victim.json")
    (data_dir / "secret.json").symlink_to(outside / "secret.txt")
    refused(upload(web.client, [("victim.json", as_bytes(WORDS))]), 400, "INVALID_PATH")
    for name in ("victim.json", "secret.json"):
        body = refused(web.client.post(DELETE, json={"filename": name}), 400, "INVALID_PATH")
        assert "a symlink" in body["message"]
    untouched(outside)
    assert (data_dir / "victim.json").is_symlink() and (data_dir / "secret.json").is_symlink()


def test_a_data_folder_that_is_a_symlink_out_is_refused(web, outside):
    plugin_dir = write_plugin(web.paths.plugins_dir(), "of-the-day")
    (plugin_dir / "of_the_day").symlink_to(outside)
    refused(upload(web.client, [("new.json", as_bytes(WORDS))]), 400, "INVALID_PATH")
    refused(web.client.post(DELETE, json={"filename": "victim.json"}), 400, "INVALID_PATH")
    refused(web.client.delete(DELETE, query_string={"file_id": "victim"}), 400, "INVALID_PATH")
    untouched(outside)


def test_a_directory_in_place_of_a_file_is_left_alone(web, data_dir):
    (data_dir / "dir.json").mkdir()
    refused(upload(web.client, [("dir.json", as_bytes(WORDS))]), 400, "INVALID_PATH")
    refused(web.client.post(DELETE, json={"filename": "dir.json"}), 400, "INVALID_PATH")
    assert (data_dir / "dir.json").is_dir()


# --- guards and the real daemon -----------------------------------------------------

def test_a_page_on_another_site_can_neither_upload_nor_delete(web, data_dir):
    evil = {"Origin": "http://evil.example"}
    refused(upload(web.client, [("w.json", as_bytes(WORDS))], headers=evil), 403,
            "CROSS_SITE_REFUSED")
    refused(web.client.post(DELETE, json={"filename": "kept.json"}, headers=evil), 403,
            "CROSS_SITE_REFUSED")
    refused(web.client.delete(f"{DELETE}?filename=kept.json", headers=evil), 403,
            "CROSS_SITE_REFUSED")
    assert stored(data_dir) == {"kept.json": KEPT}


def test_upload_and_delete_over_real_http(tmp_path, outside):
    instance = Instance(tmp_path)
    data_dir = write_plugin(instance.plugins_dir, "of-the-day") / "of_the_day"
    daemon, url = start_web(instance)
    try:
        put = requests.post(f"{url}{UPLOAD}", timeout=10,
                            files={"file": ("words.json", as_bytes(WORDS))})
        added = json.loads((instance.config_dir / "config.json").read_text())["of-the-day"]
        escape = requests.post(f"{url}{UPLOAD}", timeout=10,
                               files={"file": ("../../outside/victim.json", b"{}")})
        encoded = requests.delete(f"{url}{DELETE}?filename=..%2F..%2Foutside%2Fvictim.json",
                                  timeout=10)
        gone = requests.delete(f"{url}{DELETE}?filename=words.json", timeout=10)
        again = requests.delete(f"{url}{DELETE}?filename=words.json", timeout=10)
    finally:
        daemon.stop()
    assert put.status_code == 200, put.text
    assert put.json()["data"]["files"][0]["data_file"] == "of_the_day/words.json"
    assert escape.status_code == 400 and escape.json()["error_code"] == "INVALID_PATH"
    assert encoded.status_code == 400 and encoded.json()["error_code"] == "INVALID_PATH"
    assert gone.status_code == 200 and again.status_code == 404
    assert list(data_dir.iterdir()) == []
    assert added["categories"] == {"words": category("words", "Words")}
    assert gone.json()["data"]["config"] == {"categories_removed": ["words"]}
    section = json.loads((instance.config_dir / "config.json").read_text())["of-the-day"]
    assert section["categories"] == {} and "words" not in section.get("category_order", [])
    untouched(outside)
