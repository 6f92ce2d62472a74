"""POST /display/on-demand/start and /stop: validation, bus request, acknowledgement."""

from __future__ import annotations

import threading
import time

import pytest

from shared.bus import core as keys


def _post(web, path, body):
    return web.client.post(f"/api/v3/display/on-demand/{path}", json=body)


@pytest.mark.parametrize(("body", "code"), [
    ({}, "MISSING_PLUGIN_ID"),
    ({"plugin_id": "../etc"}, "INVALID_PLUGIN_ID"),
    ({"plugin_id": "nope"}, "UNKNOWN_PLUGIN"),
    ({"plugin_id": "clock", "mode": "weather"}, "UNKNOWN_MODE"),
    ({"plugin_id": "clock", "duration": "long"}, "INVALID_FIELD"),
    ({"plugin_id": "clock", "duration": -5}, "INVALID_FIELD"),
    ({"plugin_id": "clock", "duration": 9000000000000000000}, "INVALID_FIELD"),
    ({"plugin_id": "clock", "duration": 604801}, "INVALID_FIELD"),
    ({"plugin_id": "clock", "pinned": "yes"}, "INVALID_FIELD"),
])
def test_bad_start_requests_answer_400_and_write_nothing(web, body, code):
    response = _post(web, "start", body)
    assert response.status_code == 400
    assert response.get_json()["error_code"] == code
    assert response.get_json()["message"]
    assert web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []


def test_malformed_json_answers_400(web):
    response = web.client.post("/api/v3/display/on-demand/start", data="{nope",
                               content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error_code"] == "INVALID_JSON"
    assert web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []


def test_start_without_display_queues_the_request(web):
    response = _post(web, "start", {"plugin_id": "clock", "mode": "clock_big", "duration": 30})
    assert response.status_code == 202
    data = response.get_json()["data"]
    assert data["state"] == "requested" and data["service"] == "not_running"
    [request] = web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST)
    assert request["request_id"] == data["request_id"]
    assert (request["action"], request["plugin_id"], request["mode"], request["duration"]) == (
        "start", "clock", "clock_big", 30)


def _answer_like_a_display(web, outcome_for):
    """Answer the next request the way the display daemon does (its outcome in state)."""
    web.start_display(requests={})

    def respond():
        deadline = time.monotonic() + 5
        while not (queued := web.bus.take_all(keys.DISPLAY_ON_DEMAND_REQUEST)):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        request = queued[0]
        outcome = outcome_for(request)
        web.publish_state(
            last_request_id=request["request_id"], plugin_id=request.get("plugin_id"),
            mode=request.get("mode"),
            on_demand={**outcome, "request_id": request["request_id"]},
            requests={request["request_id"]: outcome})

    thread = threading.Thread(target=respond)
    thread.start()
    return thread


def test_start_returns_the_acknowledged_state(web):
    thread = _answer_like_a_display(web, lambda r: {
        "action": "start", "state": "active", "plugin_id": r["plugin_id"], "mode": "clock",
        "error": None})
    response = _post(web, "start", {"plugin_id": "clock"})
    thread.join()
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "success"
    assert body["data"]["state"] == "active" and body["data"]["service"] == "running"
    assert body["data"]["plugin_id"] == "clock"


def test_refusal_by_the_display_answers_409(web):
    thread = _answer_like_a_display(web, lambda r: {
        "action": "start", "state": "error", "plugin_id": None, "mode": None,
        "error": "no such mode"})
    response = _post(web, "start", {"plugin_id": "clock"})
    thread.join()
    assert response.status_code == 409
    assert response.get_json()["message"] == "no such mode"


def test_stop_writes_a_stop_request(web):
    response = _post(web, "stop", {})
    assert response.status_code == 202
    assert [r["action"] for r in web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST)] == ["stop"]


def test_stop_with_a_malformed_body_answers_400(web):
    response = web.client.post("/api/v3/display/on-demand/stop", data="garbage",
                               content_type="application/json")
    assert response.status_code == 400
    assert web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []


@pytest.mark.parametrize("duration", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_durations_answer_400(web, duration):
    response = web.client.post("/api/v3/display/on-demand/start",
                               data=f'{{"plugin_id": "clock", "duration": {duration}}}',
                               content_type="application/json")
    assert response.status_code == 400
    assert web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []


def test_two_quick_requests_are_both_queued_in_order(web):
    _post(web, "start", {"plugin_id": "clock"})
    _post(web, "stop", {})
    queued = web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST)
    assert [r["action"] for r in queued] == ["start", "stop"]


@pytest.mark.parametrize("state", [
    {"service": "running", "pid": "me"}, {"service": None}, {"service": [1]},
    {"service": "running", "pid": True}, {"updated_at": "yesterday"}])
def test_malformed_states_never_read_as_running(web, state):
    web.bus.publish(keys.DISPLAY_STATE, state)
    response = web.client.get("/api/v3/system/status")
    assert response.status_code == 200
    assert response.get_json()["data"]["display"]["service"] == "not_running"
    web.start_display()
    web.bus.publish(keys.DISPLAY_STATE, state)  # the lock is held: it is only starting
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert display["service"] == "starting" and display["plugin_id"] is None


def test_malformed_viewer_mark_does_not_break_the_preview(web):
    web.bus.publish(keys.PREVIEW_VIEWER, {"until": "soon"})
    response = web.client.get("/api/v3/display/preview")
    assert response.status_code == 200
    assert isinstance(web.bus.read(keys.PREVIEW_VIEWER)["until"], float)


@pytest.mark.parametrize(("form", "duration", "pinned"), [
    ({"duration": "30", "pinned": "on"}, 30, True),
    ({"duration": "2.5", "pinned": "false"}, 2.5, False),
    ({"duration": " 45 ", "pinned": "1"}, 45, True),
    ({"duration": "", "pinned": ""}, None, False),
    ({"mode": "", "duration": "10"}, 10, False),
])
def test_form_start_reads_duration_and_pinned(web, form, duration, pinned):
    response = web.client.post("/api/v3/display/on-demand/start",
                               data={"plugin_id": "clock", **form})
    assert response.status_code == 202, response.get_json()
    [request] = web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST)
    assert request["duration"] == duration and type(request["duration"]) is type(duration)
    assert request["pinned"] is pinned
    assert request["mode"] is None


@pytest.mark.parametrize(("form", "field"), [
    ({"duration": "soon"}, "duration"), ({"duration": "-3"}, "duration"),
    ({"duration": "nan"}, "duration"), ({"duration": "1e999"}, "duration"),
    ({"pinned": "maybe"}, "pinned"),
])
def test_form_start_with_an_unreadable_field_names_it(web, form, field):
    response = web.client.post("/api/v3/display/on-demand/start",
                               data={"plugin_id": "clock", **form})
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["error_code"] == "INVALID_FIELD"
    assert body["message"].startswith(field) and body["details"]["field"] == field
    assert web.bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []
