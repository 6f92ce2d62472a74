"""Operation history over the API: every state-changing call recorded once, in one place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.history import DISPLAY, HistoryWriter, history_dir
from tests.web_service.conftest import WebEnv


def history(web: WebEnv, query: str = "") -> dict:
    answer = web.client.get(f"/api/v3/history{query}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def test_a_state_changing_call_is_recorded_with_its_result_and_never_its_body(
        web: WebEnv) -> None:
    secret = "sk-very-secret-value"
    saved = web.client.post("/api/v3/plugins/config",
                            json={"plugin_id": "clock", "config": {"api_key": secret}})
    assert saved.status_code == 200, saved.get_json()
    refused = web.client.post("/api/v3/plugins/toggle", json={"plugin_id": "../etc",
                                                              "enabled": True})
    assert refused.status_code == 400
    web.client.get("/api/v3/plugins/installed")  # reads are not recorded

    entries = history(web)["entries"]
    assert [(e["what"], e["result"], e["status"]) for e in entries] == [
        ("plugins.toggle", "error", 400), ("plugins.post_config", "success", 200)]
    failed, done = entries
    assert failed["error_code"] == "INVALID_PLUGIN_ID" and failed["plugin_id"] is None
    assert done == {"id": done["id"], "at": done["at"], "source": "web", "kind": "api",
                    "what": "plugins.post_config", "result": "success", "plugin_id": "clock",
                    "method": "POST", "path": "/api/v3/plugins/config", "status": 200,
                    "client": "127.0.0.1"}
    stored = (history_dir(web.paths.cache_dir) / "web.jsonl").read_text()
    assert secret not in stored and "api_key" not in stored


def test_a_refused_sign_in_is_recorded_without_the_password(web: WebEnv) -> None:
    answer = web.client.post("/api/v3/auth/sign-in", json={"password": "hunter2-guess"})
    assert answer.status_code >= 400
    entry = history(web)["entries"][0]
    assert (entry["what"], entry["result"], entry["path"]) == (
        "auth.sign_in_route", "error", "/api/v3/auth/sign-in")
    assert entry["error_code"] == answer.get_json()["error_code"]
    assert "hunter2" not in (history_dir(web.paths.cache_dir) / "web.jsonl").read_text()


def test_a_call_refused_before_its_view_is_recorded_too(web: WebEnv) -> None:
    answer = web.client.post("/api/v3/errors/clear", json={},
                             headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    entry = history(web)["entries"][0]
    assert (entry["what"], entry["error_code"]) == ("errors.clear", "CROSS_SITE_REFUSED")


def test_filters_and_pages_walk_every_entry_once_newest_first(web: WebEnv) -> None:
    display = HistoryWriter(history_dir(web.paths.cache_dir), DISPLAY)
    for n in range(5):
        display.plugin_event("clock", "loaded", f"run {n}")
        web.client.post("/api/v3/plugins/toggle", json={"plugin_id": "ticker",
                                                        "enabled": n % 2 == 0})
    display.plugin_event("ticker", "load_failed", "ImportError: no module named feeds")

    everything = history(web, "?limit=1000")["entries"]
    assert len(everything) == 11
    ids = [e["id"] for e in everything]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 11
    assert everything[0]["kind"] == "plugin" and everything[0]["result"] == "error"

    walked, before = [], ""
    for _ in range(10):  # three pages of four
        page = history(web, f"?limit=4{before}")
        walked += page["entries"]
        if page["next_before"] is None:
            break
        before = f"&before={page['next_before']}"
    assert [e["id"] for e in walked] == ids

    plugin_events = history(web, "?kind=plugin")["entries"]
    assert len(plugin_events) == 6 and {e["source"] for e in plugin_events} == {"display"}
    ticker = history(web, "?plugin_id=ticker")["entries"]
    assert [e["kind"] for e in ticker] == ["plugin"] + ["api"] * 5
    assert history(web, "?kind=api&plugin_id=clock")["entries"] == []


@pytest.mark.parametrize("query, code, field", [
    ("limit=0", "INVALID_FIELD", "limit"), ("limit=1001", "INVALID_FIELD", "limit"),
    ("limit=many", "INVALID_FIELD", "limit"), ("before=-3", "INVALID_FIELD", "before"),
    ("limit=%C2%B2", "INVALID_FIELD", "limit"), ("before=%C2%B2", "INVALID_FIELD", "before"),
    ("before=%D9%A3", "INVALID_FIELD", "before"),
    ("before=9" * 30, "INVALID_FIELD", "before"), ("kind=web", "INVALID_FIELD", "kind"),
    ("plugin_id=../x", "INVALID_PLUGIN_ID", "plugin_id"),
])
def test_a_bad_parameter_is_one_400_naming_it(web: WebEnv, query: str, code: str,
                                              field: str) -> None:
    answer = web.client.get(f"/api/v3/history?{query}")
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == code
    assert answer.get_json()["details"] == {"field": field}


def test_torn_lines_and_garbage_in_the_files_are_skipped(web: WebEnv) -> None:
    display = HistoryWriter(history_dir(web.paths.cache_dir), DISPLAY)
    display.plugin_event("clock", "loaded")
    folder = history_dir(web.paths.cache_dir)
    good = json.loads((folder / "display.jsonl").read_text())
    with (folder / "display.jsonl").open("ab") as file:
        file.write(b"\xff\xfe not text\n[1, 2, 3]\n{}\nnull\n")
        file.write(json.dumps({**good, "id": "7"}).encode() + b"\n")  # wrong types
        file.write(json.dumps({**good, "kind": "other"}).encode() + b"\n")
        file.write(json.dumps({**good, "id": good["id"] + 1, "status": "x",
                               "detail": 5, "extra": "dropped"}).encode() + b"\n")
        file.write(b'{"id": 99, "at": 1, "source": "display", "kind": "plug')  # torn
    (folder / "web.jsonl.1").write_bytes(b"\x00" * 100)
    entries = history(web)["entries"]
    assert [e["id"] for e in entries] == [good["id"] + 1, good["id"]]
    assert entries[0] == {**good, "id": good["id"] + 1}  # odd fields dropped, not shown
    assert (folder / "display.jsonl").is_file()


def test_a_folder_or_fifo_in_place_of_a_file_is_no_500(web: WebEnv, tmp_path: Path) -> None:
    import os

    folder = history_dir(web.paths.cache_dir)
    folder.mkdir(parents=True)
    (folder / "web.jsonl").mkdir()
    os.mkfifo(folder / "display.jsonl")
    (folder / "display.jsonl.1").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("outside\n")
    assert web.client.post("/api/v3/plugins/toggle", json={
        "plugin_id": "clock", "enabled": True}).status_code == 200  # recording fails quietly
    assert history(web)["entries"] == []
    assert (tmp_path / "elsewhere").read_text() == "outside\n"


def test_clearing_forgets_both_daemons_entries_and_is_recorded(web: WebEnv) -> None:
    display = HistoryWriter(history_dir(web.paths.cache_dir), DISPLAY, max_bytes=300)
    for n in range(4):  # rotated at least once
        display.plugin_event("clock", "loaded", f"run {n}")
    web.client.post("/api/v3/plugins/toggle", json={"plugin_id": "clock", "enabled": True})
    assert (history_dir(web.paths.cache_dir) / "display.jsonl.1").exists()

    answer = web.client.post("/api/v3/history/clear")
    assert answer.status_code == 200
    assert answer.get_json()["data"] == {"files_removed": 3}
    entries = history(web)["entries"]
    assert [(e["what"], e["result"]) for e in entries] == [("history.clear", "success")]
    display.plugin_event("clock", "unloaded", "switched off")  # the display writes on
    assert [e["what"] for e in history(web)["entries"]] == ["unloaded", "history.clear"]
