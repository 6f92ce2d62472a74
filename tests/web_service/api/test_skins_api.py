"""GET /api/v3/skins and saving a skin choice, on real skin folders.

The in-process tests use the ``web`` fixture (its install root is the test folder, so
its ``skins/`` is ``<tmp>/skins``); one test asks the real web daemon over loopback.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import requests

from shared.plugin_api.skins.manifest import SKINS_DIR_ENV
from tests.daemons import Instance, start_web
from tests.web_service.conftest import WebEnv

FIXTURE_SKINS = Path(__file__).resolve().parents[2] / "skin_fixture" / "skins"


@pytest.fixture
def skins(web: WebEnv, monkeypatch: pytest.MonkeyPatch) -> WebEnv:
    monkeypatch.delenv(SKINS_DIR_ENV, raising=False)
    shutil.copytree(FIXTURE_SKINS, web.paths.root / "skins")
    return web


def _names(answer: requests.Response | object) -> list[str]:
    data = answer.get_json()["data"]  # type: ignore[attr-defined]
    return [skin["name"] for skin in data["skins"]]


def test_every_installed_skin_is_listed_with_its_problems(skins: WebEnv) -> None:
    answer = skins.client.get("/api/v3/skins")
    assert answer.status_code == 200
    listed = {s["name"]: s for s in answer.get_json()["data"]["skins"]}
    assert sorted(listed) == ["flaky", "garbage", "half", "neon"]
    assert listed["garbage"]["ok"] is False
    assert listed["garbage"]["problems"][0].startswith("skin.json cannot be read")
    assert listed["neon"] == {
        "name": "neon", "display_name": "Neon", "version": "1.0.0", "skin_api_version": "1.0.0",
        "description": "A green bar and big scores", "modes": ["live", "recent", "upcoming"],
        "plugins": ["skin-scoreboard"], "sports": [], "has_preview": True, "ok": True,
        "problems": []}


def test_the_plugin_filter_keeps_usable_skins_that_fit(skins: WebEnv) -> None:
    assert _names(skins.client.get("/api/v3/skins?plugin_id=skin-scoreboard")) == ["half", "neon"]
    assert _names(skins.client.get("/api/v3/skins?plugin_id=other-board")) == ["flaky"]
    assert len(_names(skins.client.get("/api/v3/skins?plugin_id="))) == 4


def test_a_bad_plugin_id_is_a_clear_400(skins: WebEnv) -> None:
    answer = skins.client.get("/api/v3/skins?plugin_id=../etc")
    assert answer.status_code == 400
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "INVALID_PLUGIN_ID"


def test_no_skins_folder_is_an_empty_list(web: WebEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SKINS_DIR_ENV, raising=False)
    assert web.client.get("/api/v3/skins").get_json()["data"]["skins"] == []


def test_a_saved_skin_options_object_replaces_the_stored_one(web: WebEnv) -> None:
    for options in ({"a": 1, "b": 2}, {"c": 3}):
        answer = web.client.post("/api/v3/plugins/config", json={
            "plugin_id": "clock", "config": {"skin": "neon", "skin_options": options}})
        assert answer.status_code == 200, answer.get_json()
    section = web.config()["clock"]
    assert section["skin"] == "neon" and section["skin_options"] == {"c": 3}
    answer = web.client.post("/api/v3/plugins/config", json={
        "plugin_id": "clock", "config": {"title": "x"}})
    assert answer.status_code == 200
    assert web.config()["clock"]["skin_options"] == {"c": 3}  # untouched when not sent


def test_a_skin_preview_is_served_as_png_and_a_missing_one_is_a_404(skins: WebEnv) -> None:
    answer = skins.client.get("/api/v3/skins/neon/preview.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert answer.data == (FIXTURE_SKINS / "neon" / "preview.png").read_bytes()
    for path, code in (("half", "SKIN_PREVIEW_NOT_FOUND"), ("nowhere", "SKIN_NOT_FOUND"),
                       ("..", "SKIN_NOT_FOUND")):
        answer = skins.client.get(f"/api/v3/skins/{path}/preview.png")
        assert answer.status_code == 404, path
        assert answer.get_json()["error_code"] == code, path
    (skins.paths.root / "skins" / "half" / "preview.png").write_bytes(b"<svg/>")
    answer = skins.client.get("/api/v3/skins/half/preview.png")
    assert answer.get_json()["error_code"] == "SKIN_PREVIEW_NOT_FOUND"


@pytest.mark.daemons
def test_the_real_web_daemon_lists_the_skins(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SKINS_DIR_ENV, str(FIXTURE_SKINS))
    daemon, url = start_web(Instance(tmp_path))
    try:
        answer = requests.get(f"{url}/api/v3/skins", params={"plugin_id": "skin-scoreboard"},
                              timeout=30)
        assert answer.status_code == 200
        assert [s["name"] for s in answer.json()["data"]["skins"]] == ["half", "neon"]
        assert json.loads(answer.text)["status"] == "success"
    finally:
        daemon.stop()
