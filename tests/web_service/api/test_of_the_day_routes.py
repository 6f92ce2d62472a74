"""The of-the-day plugin's JSON data files over the API: upload and delete, and the
categories they add to and remove from its config. Path safety is in
``test_of_the_day_path_safety.py``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shared.bus import core as keys
from shared.plugin_system.of_the_day import MAX_FILE_BYTES
from tests.web_service.conftest import write_plugin
from tests.web_service.of_the_day_helpers import (
    DELETE,
    KEPT,
    OTD_SCHEMA,
    STRICT_SCHEMA,
    UPLOAD,
    WORDS,
    as_bytes,
    category,
    make_data_dir,
    plugin_config,
    refused,
    save_categories,
    stored,
    upload,
)


@pytest.fixture
def data_dir(web) -> Path:
    """The of-the-day plugin's data folder, with one file the plugin already reads."""
    return make_data_dir(web, OTD_SCHEMA)


@pytest.fixture
def strict_data_dir(web) -> Path:
    """The same, for a plugin whose schema refuses category names with capitals."""
    return make_data_dir(web, STRICT_SCHEMA)


# --- upload -------------------------------------------------------------------------

def test_upload_stores_the_file_where_the_plugin_reads_it_and_says_what_it_stored(web,
                                                                                  data_dir):
    answer = upload(web.client, [("word_of_the_day.json", as_bytes(WORDS))])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"plugin_id": "of-the-day", "files": [{
        "name": "word_of_the_day.json", "data_file": "of_the_day/word_of_the_day.json",
        "category": "word_of_the_day", "days": 3, "replaced": False}],
        "config": {"categories_added": ["word_of_the_day"]}}
    assert stored(data_dir) == {"kept.json": KEPT, "word_of_the_day.json": WORDS}
    assert not [p for p in data_dir.iterdir() if p.name.startswith(".")]  # no temp file left


def test_a_second_upload_replaces_the_file_and_a_bom_is_accepted(web, data_dir):
    upload(web.client, [("kept.json", b"\xef\xbb\xbf" + as_bytes(WORDS))])
    assert stored(data_dir)["kept.json"] == WORDS
    # written back without the BOM: the plugin opens its files as plain UTF-8
    assert (data_dir / "kept.json").read_bytes()[:1] == b"{"
    answer = upload(web.client, [("kept.json", as_bytes(KEPT))], field="files")
    assert answer.get_json()["data"]["files"][0]["replaced"] is True
    assert stored(data_dir)["kept.json"] == KEPT


def test_several_files_are_all_checked_before_any_is_stored(web, data_dir):
    answer = upload(web.client, [("a.json", as_bytes(WORDS)), ("b.json", b"{nope")])
    refused(answer, 400, "INVALID_DATA_FILE")
    assert stored(data_dir) == {"kept.json": KEPT}
    both = upload(web.client, [("a.json", as_bytes(WORDS)), ("b.json", as_bytes(KEPT))])
    assert [f["name"] for f in both.get_json()["data"]["files"]] == ["a.json", "b.json"]


def test_the_data_folder_is_created_when_the_plugin_has_none(web):
    plugin_dir = write_plugin(web.paths.plugins_dir(), "of-the-day")
    assert upload(web.client, [("w.json", as_bytes(WORDS))]).status_code == 200
    assert json.loads((plugin_dir / "of_the_day" / "w.json").read_text()) == WORDS


@pytest.mark.parametrize(("content", "said"), [
    (b"{nope", "is not valid JSON: Expecting property name"),
    (b"\xff\xfe{}", "is not UTF-8 text"),
    (b'{"1": {"word": NaN}}', "NaN is not a JSON number"),
    (b"[" * 100 + b"]" * 100, "nested deeper than 64 levels"),
    (b'[{"word": "x"}]', "must be a JSON object of day entries"),
    (b"{}", "must be a JSON object of day entries"),
    (b'"text"', "must be a JSON object of day entries"),
    (b'{"0": {}}', "key '0' is not a day of the year"),
    (b'{"367": {}}', "key '367' is not a day of the year"),
    (b'{"01": {}}', "key '01' is not a day of the year"),
    (b'{"2025-10-11": {}}', "key '2025-10-11' is not a day of the year"),
    (b'{"\xd9\xa1": {}}', "is not a day of the year"),  # an Arabic-Indic digit one
    (b'{"5": "a word"}', "day 5 is not an object"),
])
def test_garbage_or_the_wrong_shape_is_refused_and_nothing_is_stored(web, data_dir,
                                                                     content, said):
    body = refused(upload(web.client, [("new.json", content)]), 400, "INVALID_DATA_FILE")
    assert said in body["message"] and body["details"]["file"] == "new.json"
    assert stored(data_dir) == {"kept.json": KEPT}


@pytest.mark.parametrize("name", ["words.txt", "words.json.txt", "words", ".json",
                                  "words.JSON"])
def test_a_file_that_is_not_named_json_is_refused(web, data_dir, name):
    refused(upload(web.client, [(name, as_bytes(WORDS))]), 400, "UNSUPPORTED_FILE_TYPE"
            if name != ".json" else "INVALID_PATH")
    assert stored(data_dir) == {"kept.json": KEPT}


def test_a_file_over_one_mib_is_refused(web, data_dir):
    big = as_bytes({"1": {"word": "x" * MAX_FILE_BYTES}})
    body = refused(upload(web.client, [("big.json", big)]), 413, "FILE_TOO_LARGE")
    assert body["details"]["limit"] == MAX_FILE_BYTES
    assert stored(data_dir) == {"kept.json": KEPT}


def test_an_upload_without_a_file_is_refused(web, data_dir):
    answer = web.client.post(UPLOAD, data={"plugin_id": "of-the-day"},
                             content_type="multipart/form-data")
    refused(answer, 400, "NO_FILES")


def test_a_missing_plugin_is_a_404_envelope_on_both_routes(web):
    body = refused(upload(web.client, [("w.json", as_bytes(WORDS))]), 404, "UNKNOWN_PLUGIN")
    assert "of-the-day" in body["message"] and "not installed" in body["message"]
    refused(web.client.post(DELETE, json={"filename": "w.json"}), 404, "UNKNOWN_PLUGIN")
    refused(upload(web.client, [("w.json", as_bytes(WORDS))], plugin_id="gone"), 404,
            "UNKNOWN_PLUGIN")


def test_a_fork_of_the_plugin_is_named_by_plugin_id(web, data_dir):
    other = write_plugin(web.paths.plugins_dir(), "verse-of-the-day")
    answer = upload(web.client, [("v.json", as_bytes(WORDS))], plugin_id="verse-of-the-day")
    assert answer.get_json()["data"]["plugin_id"] == "verse-of-the-day"
    assert json.loads((other / "of_the_day" / "v.json").read_text()) == WORDS
    deleted = web.client.delete(DELETE, query_string={"plugin_id": "verse-of-the-day",
                                                      "filename": "v.json"})
    assert deleted.status_code == 200 and not (other / "of_the_day" / "v.json").exists()
    assert stored(data_dir) == {"kept.json": KEPT}


# --- delete -------------------------------------------------------------------------

@pytest.mark.parametrize("send", [
    lambda c: c.post(DELETE, json={"filename": "kept.json"}),
    lambda c: c.post(DELETE, json={"name": "kept.json"}),
    lambda c: c.post(DELETE, json={"file_id": "kept"}),  # the existing system's widget
    lambda c: c.post(DELETE, data={"filename": "kept.json"}),
    lambda c: c.delete(DELETE, query_string={"filename": "kept.json"}),
    lambda c: c.delete(DELETE, json={"filename": "kept.json", "plugin_id": "of-the-day"}),
])
def test_delete_removes_the_file_by_any_accepted_field_and_method(web, data_dir, send):
    answer = send(web.client)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"plugin_id": "of-the-day", "deleted": {
        "name": "kept.json", "data_file": "of_the_day/kept.json", "category": "kept"},
        "config": {"categories_removed": []}}
    assert stored(data_dir) == {}


def test_deleting_a_file_that_is_not_there_is_a_404(web, data_dir):
    refused(web.client.post(DELETE, json={"filename": "absent.json"}), 404,
            "UNKNOWN_DATA_FILE")
    (data_dir / "kept.json").unlink()
    data_dir.rmdir()
    refused(web.client.post(DELETE, json={"filename": "kept.json"}), 404, "UNKNOWN_DATA_FILE")


def test_delete_needs_a_file_name(web, data_dir):
    for body in ({}, {"filename": ""}, {"filename": None}, {"filename": 5},
                 {"filename": ["kept.json"]}):
        refused(web.client.post(DELETE, json=body), 400, "INVALID_PATH")
    refused(web.client.post(DELETE), 400, "INVALID_PATH")
    assert stored(data_dir) == {"kept.json": KEPT}


# --- the plugin's config -----------------------------------------------------------

def test_upload_adds_the_new_category_to_the_plugin_config_and_tells_the_display(web,
                                                                                  data_dir):
    assert "of-the-day" not in web.config()  # no section yet: the upload creates it
    answer = upload(web.client, [("word_of_the_day.json", as_bytes(WORDS)),
                                 ("bible_verse.json", as_bytes(KEPT))])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"]["config"] == {
        "categories_added": ["word_of_the_day", "bible_verse"]}
    expected = {"word_of_the_day": category("word_of_the_day", "Word Of The Day"),
                "bible_verse": category("bible_verse", "Bible Verse")}
    section = web.config()["of-the-day"]
    assert section["categories"] == expected
    # appended to the order the plugin read before (the schema's default here)
    assert section["category_order"] == ["word_of_the_day", "bible_verse"]
    assert section["display_duration"] == 40  # the schema's defaults apply as for any save
    shown = plugin_config(web)
    assert shown["categories"] == expected
    assert shown["category_order"] == ["word_of_the_day", "bible_verse"]
    assert "of-the-day" in web.bus.read(keys.CONFIG_CHANGED)["sections"]


def test_a_single_upload_can_name_its_category(web, data_dir):
    answer = web.client.post(UPLOAD, content_type="multipart/form-data", data={
        "file": (io.BytesIO(as_bytes(WORDS)), "my_words.json"),
        "display_name": "  Words I like  "})
    assert answer.status_code == 200, answer.get_json()
    assert plugin_config(web)["categories"]["my_words"] == category("my_words", "Words I like")
    blank = web.client.post(UPLOAD, content_type="multipart/form-data", data={
        "file": (io.BytesIO(as_bytes(WORDS)), "other_words.json"), "display_name": ""})
    assert blank.status_code == 200, blank.get_json()
    assert plugin_config(web)["categories"]["other_words"]["display_name"] == "Other Words"


@pytest.mark.parametrize(("files", "display_name"), [
    ([("a.json", as_bytes(WORDS)), ("b.json", as_bytes(KEPT))], "One name for two"),
    ([("a.json", as_bytes(WORDS))], "x" * 101),
    ([("a.json", as_bytes(WORDS))], "line\nbreak"),
])
def test_a_display_name_that_cannot_name_one_category_is_refused(web, data_dir, files,
                                                                 display_name):
    before = web.paths.config_file.read_bytes()
    answer = web.client.post(UPLOAD, content_type="multipart/form-data", data={
        "file": [(io.BytesIO(content), name) for name, content in files],
        "display_name": display_name})
    body = refused(answer, 400, "INVALID_FIELD")
    assert body["details"]["field"] == "display_name"
    assert stored(data_dir) == {"kept.json": KEPT}
    assert web.paths.config_file.read_bytes() == before


def test_an_existing_category_is_left_as_the_user_set_it(web, data_dir):
    mine = category("kept", "My own name", enabled=False)
    save_categories(web, {"kept": mine}, ["kept"])
    answer = upload(web.client, [("kept.json", as_bytes(WORDS)), ("new.json", as_bytes(KEPT))])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"]["config"] == {"categories_added": ["new"]}
    shown = plugin_config(web)
    assert shown["categories"] == {"kept": mine, "new": category("new", "New")}
    assert shown["category_order"] == ["kept", "new"]
    assert stored(data_dir)["kept.json"] == WORDS
    # nothing new: the config is not saved again
    before = web.paths.config_file.read_bytes()
    again = upload(web.client, [("new.json", as_bytes(WORDS))])
    assert again.get_json()["data"]["config"] == {"categories_added": []}
    assert web.paths.config_file.read_bytes() == before


def test_delete_removes_the_category_and_its_place_in_the_order(web, data_dir):
    (data_dir / "verse.json").write_text(json.dumps(WORDS))
    save_categories(web, {"kept": category("kept", "Kept"), "verse": category("verse", "V")},
                    ["verse", "kept", "word_of_the_day"])
    answer = web.client.delete(DELETE, query_string={"filename": "kept.json"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"]["config"] == {"categories_removed": ["kept"]}
    for section in (plugin_config(web), web.config()["of-the-day"]):
        assert section["categories"] == {"verse": category("verse", "V")}
        assert section["category_order"] == ["verse", "word_of_the_day"]
    assert "of-the-day" in web.bus.read(keys.CONFIG_CHANGED)["sections"]
    assert stored(data_dir) == {"verse.json": WORDS}


def test_deleting_a_file_no_category_names_leaves_the_config_alone(web, data_dir):
    before = web.paths.config_file.read_bytes()
    answer = web.client.post(DELETE, json={"filename": "kept.json"})
    assert answer.get_json()["data"]["config"] == {"categories_removed": []}
    assert web.paths.config_file.read_bytes() == before  # and no section created
    assert web.bus.read(keys.CONFIG_CHANGED) is None


def test_a_refused_config_save_puts_every_file_back_byte_for_byte(web, strict_data_dir):
    kept = strict_data_dir / "kept.json"
    kept.write_bytes(b'{"7": {"title": "kept"}}\n')  # not as the upload would write it
    kept.chmod(0o600)
    original = kept.read_bytes()
    config_before = web.paths.config_file.read_bytes()
    answer = upload(web.client, [("kept.json", as_bytes(WORDS)),
                                 ("Bad-Name.json", as_bytes(WORDS))])
    body = refused(answer, 400, "INVALID_PLUGIN_CONFIG")
    assert "Bad-Name" in body["message"]
    assert kept.read_bytes() == original and kept.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in strict_data_dir.iterdir()) == ["kept.json"]  # no temp file
    assert web.paths.config_file.read_bytes() == config_before
    assert web.bus.read(keys.CONFIG_CHANGED) is None


def test_a_config_that_cannot_be_saved_undoes_the_upload_and_the_delete(web, data_dir):
    save_categories(web, {"kept": category("kept", "Kept")}, ["kept"])
    original = (data_dir / "kept.json").read_bytes()
    web.paths.config_file.write_text('{"of-the-day": {"categories": ')  # cut short
    broken = web.paths.config_file.read_bytes()
    for answer in (upload(web.client, [("new.json", as_bytes(WORDS))]),
                   upload(web.client, [("kept.json", as_bytes(WORDS))]),
                   web.client.post(DELETE, json={"filename": "kept.json"}),
                   web.client.delete(DELETE, query_string={"file_id": "kept"})):
        refused(answer, 409, "CONFIG_INVALID_JSON")
    assert stored(data_dir) == {"kept.json": KEPT}
    assert (data_dir / "kept.json").read_bytes() == original
    assert web.paths.config_file.read_bytes() == broken
