"""POST /system/action where nothing can act: the web started by hand, or a dev run."""

from __future__ import annotations

import pytest

from tests.web_service.conftest import WebEnv


@pytest.fixture(autouse=True)
def no_supervisor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDPANEL_SUPERVISOR", raising=False)
    monkeypatch.delenv("INVOCATION_ID", raising=False)


def test_a_web_started_by_hand_says_there_is_nothing_to_ask(web: WebEnv) -> None:
    answer = web.client.post("/api/v3/system/action", json={"action": "stop_display"})
    assert answer.status_code == 409
    assert answer.json["error_code"] == "NO_SUPERVISOR"
    assert "started by hand" in answer.json["message"]


@pytest.mark.parametrize("action", ["reboot_system", "shutdown_system", "enable_autostart",
                                    "disable_autostart"])
def test_system_wide_actions_are_refused_on_a_development_run(
        web: WebEnv, monkeypatch: pytest.MonkeyPatch, action: str) -> None:
    monkeypatch.setenv("LEDPANEL_SUPERVISOR", "dev")
    answer = web.client.post("/api/v3/system/action", json={"action": action})
    assert answer.status_code == 409
    assert answer.json["error_code"] == "NOT_ON_DEV_RUN"
    assert "not available on a development run" in answer.json["message"]


def test_a_body_without_an_action_is_refused(web: WebEnv) -> None:
    answer = web.client.post("/api/v3/system/action", json={})
    assert answer.status_code == 400
    assert answer.json["error_code"] == "UNKNOWN_ACTION"


def test_the_history_names_the_action_asked_for(web: WebEnv) -> None:
    web.client.post("/api/v3/system/action", json={"action": "restart_display_service"})
    web.client.post("/api/v3/system/action", json={"action": "nonsense"})
    entries = web.client.get("/api/v3/history").json["data"]["entries"]
    assert [(e["what"], e["error_code"]) for e in entries[:2]] == [
        ("system_actions.system_action", "UNKNOWN_ACTION"),
        ("system.action restart_display_service", "NO_SUPERVISOR")]
