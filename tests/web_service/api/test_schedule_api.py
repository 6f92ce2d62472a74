"""GET/POST /config/schedule and /config/dim-schedule; schedule and sync values on /config/main."""

from __future__ import annotations

from typing import Any

import pytest

from shared.bus import core as keys
from shared.schedules import DAYS

SCHEDULE = "/api/v3/config/schedule"
DIM = "/api/v3/config/dim-schedule"


def _dotted(body: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Return a nested body as form fields with dotted names (days.monday.start_time)."""
    flat: dict[str, Any] = {}
    for key, value in body.items():
        if isinstance(value, dict):
            flat.update(_dotted(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _backups(web: Any) -> list[Any]:
    directory = web.paths.backups_dir
    return sorted(directory.iterdir()) if directory.exists() else []


def test_get_dim_schedule_returns_every_day_in_the_per_day_shape(web):
    response = web.client.get(DIM)
    assert response.status_code == 200
    data = response.get_json()["data"]
    assert data["mode"] == "global"
    assert data["dim_brightness"] == 30
    assert list(data["days"]) == list(DAYS)
    assert data["days"]["friday"] == {"enabled": True, "start_time": "22:00",
                                      "end_time": "07:00"}


def test_get_dim_schedule_fills_days_missing_from_the_stored_section(web):
    config = web.config()
    config["dim_schedule"] = {"enabled": True, "mode": "global", "start_time": "21:00",
                              "end_time": "06:00", "dim_brightness": 10}
    web.app.extensions["ledpanel"].store.save(config)
    data = web.client.get(DIM).get_json()["data"]
    assert data["days"]["monday"] == {"enabled": True, "start_time": "21:00",
                                      "end_time": "06:00"}


def test_post_dim_schedule_accepts_the_shape_get_returns(web):
    shape = web.client.get(DIM).get_json()["data"]
    shape.update(enabled=True, mode="per-day", dim_brightness=15)
    shape["days"]["sunday"] = {"enabled": False, "start_time": "20:00", "end_time": "08:30"}
    response = web.client.post(DIM, json=shape)
    assert response.status_code == 200, response.get_json()
    stored = web.config()["dim_schedule"]
    assert stored["enabled"] is True and stored["mode"] == "per-day"
    assert stored["dim_brightness"] == 15
    assert stored["days"]["sunday"] == {"enabled": False, "start_time": "20:00",
                                        "end_time": "08:30"}
    assert response.get_json()["data"] == web.client.get(DIM).get_json()["data"]
    assert web.bus.read(keys.CONFIG_CHANGED)["sections"] == ["dim_schedule"]


def test_post_dim_schedule_accepts_the_global_shape_and_changes_only_what_it_sends(web):
    before = web.config()
    response = web.client.post(DIM, json={"enabled": True, "start_time": "23:15"})
    assert response.status_code == 200, response.get_json()
    after = web.config()
    assert after["dim_schedule"]["start_time"] == "23:15"
    assert after["dim_schedule"]["enabled"] is True
    after["dim_schedule"].update(start_time="22:00", enabled=False)
    assert after == before


def test_post_schedule_takes_flat_form_keys(web):
    form = {"schedule_enabled": "on", "mode": "per-day", "start_time": "07:00",
            "end_time": "23:00"}
    for day in DAYS:
        form.update({f"{day}_enabled": "on", f"{day}_start": "06:30", f"{day}_end": "22:00"})
    del form["sunday_enabled"]  # an unchecked checkbox is not sent
    response = web.client.post(SCHEDULE, data=form)
    assert response.status_code == 200, response.get_json()
    stored = web.config()["schedule"]
    assert stored["enabled"] is True and stored["mode"] == "per-day"
    assert stored["days"]["monday"] == {"enabled": True, "start_time": "06:30",
                                        "end_time": "22:00"}
    assert stored["days"]["sunday"]["enabled"] is False


def test_a_form_without_the_enabled_checkbox_turns_the_schedule_off(web):
    web.client.post(SCHEDULE, json={"enabled": True})
    response = web.client.post(SCHEDULE, data={"start_time": "8:00", "end_time": "22:00"})
    assert response.status_code == 200, response.get_json()
    stored = web.config()["schedule"]
    assert stored["enabled"] is False
    assert stored["start_time"] == "08:00"  # stored as HH:MM
    assert stored["days"]["monday"]["enabled"] is True  # no field of that day was sent


def test_post_schedule_takes_the_days_shape_as_json(web):
    body = {"enabled": True, "mode": "per-day",
            "days": {"saturday": {"start_time": "09:00", "end_time": "01:00"}}}
    response = web.client.post(SCHEDULE, json=body)
    assert response.status_code == 200, response.get_json()
    saturday = web.config()["schedule"]["days"]["saturday"]
    assert saturday == {"enabled": True, "start_time": "09:00", "end_time": "01:00"}


@pytest.mark.parametrize(("route", "body", "field"), [
    (SCHEDULE, {"start_time": "25:00"}, "start_time"),
    (SCHEDULE, {"end_time": "7pm"}, "end_time"),
    (SCHEDULE, {"monday_start": ""}, "monday_start"),
    (SCHEDULE, {"days": {"friday": {"end_time": "24:00"}}}, "days.friday.end_time"),
    (SCHEDULE, {"mode": "weekly"}, "mode"),
    (SCHEDULE, {"enabled": "maybe"}, "enabled"),
    (SCHEDULE, {"funday_start": "07:00"}, "funday_start"),
    (DIM, {"dim_brightness": 0}, "dim_brightness"),
    (DIM, {"dim_brightness": "bright"}, "dim_brightness"),
    (DIM, {"days": {"monday": {"start_time": "7:5"}}}, "days.monday.start_time"),
])
def test_bad_values_answer_400_naming_the_field_and_write_nothing(web, route, body, field):
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    for send in ({"json": body}, {"data": _dotted(body)}):
        response = web.client.post(route, **send)
        assert response.status_code == 400, response.get_json()
        answer = response.get_json()
        assert answer["details"]["field"] == field
        assert field in answer["message"]
    assert web.paths.config_file.read_bytes() == before
    assert _backups(web) == backups
    assert web.bus.read(keys.CONFIG_CHANGED) is None


def test_a_bad_time_left_in_the_stored_section_is_named_until_fixed(web):
    config = web.config()
    config["schedule"]["days"]["monday"]["start_time"] = "7am"
    web.app.extensions["ledpanel"].store.save(config)
    refused = web.client.post(SCHEDULE, json={"enabled": True})
    assert refused.status_code == 400
    assert refused.get_json()["details"]["field"] == "schedule.days.monday.start_time"
    fixed = web.client.post(SCHEDULE, json={"enabled": True, "monday_start": "07:00"})
    assert fixed.status_code == 200, fixed.get_json()


def test_a_save_that_changes_nothing_writes_nothing(web):
    web.client.post(SCHEDULE, json={"enabled": True})
    before, backups = web.paths.config_file.read_bytes(), _backups(web)
    seq = web.bus.read(keys.CONFIG_CHANGED)["seq"]
    response = web.client.post(SCHEDULE, json={"enabled": True, "start_time": "07:00"})
    assert response.status_code == 200
    assert web.paths.config_file.read_bytes() == before
    assert _backups(web) == backups
    assert web.bus.read(keys.CONFIG_CHANGED)["seq"] == seq


@pytest.mark.parametrize(("body", "field"), [
    ({"schedule": {"start_time": "25:00"}}, "schedule.start_time"),
    ({"dim_schedule": {"days": {"monday": {"end_time": "7pm"}}}},
     "dim_schedule.days.monday.end_time"),
    ({"dim_schedule": {"mode": "sometimes"}}, "dim_schedule.mode"),
    ({"sync": {"follower_position": "above"}}, "sync.follower_position"),
    ({"sync": {"role": "boss"}}, "sync.role"),
    ({"sync": {"group": "Living Room"}}, "sync.group"),
    ({"sync": {"leader": "hall/2"}}, "sync.leader"),
    ({"sync": {"wall": "above"}}, "sync.wall"),
    ({"display": {"double_sided": "both"}}, "display.double_sided"),
])
def test_main_config_saves_check_schedule_and_sync_values(web, body, field):
    before = web.paths.config_file.read_bytes()
    response = web.client.post("/api/v3/config/main", json=body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["details"]["field"] == field
    assert web.paths.config_file.read_bytes() == before


def test_main_config_accepts_good_sync_and_double_sided_values(web):
    sync = {"follower_position": "left", "role": "follower", "group": "wall-1",
            "leader": "hall", "wall": "both"}
    response = web.client.post("/api/v3/config/main", json={
        "sync": sync, "display": {"double_sided": True}})
    assert response.status_code == 200, response.get_json()
    config = web.config()
    assert config["sync"] == sync
    assert config["display"]["double_sided"] is True


@pytest.mark.parametrize(("path", "value", "field"), [
    (("sync", "follower_position"), "middle", "sync.follower_position"),
    (("display", "double_sided"), "yes", "display.double_sided"),
    (("schedule", "end_time"), "23:60", "schedule.end_time"),
])
def test_the_raw_editor_refuses_bad_schedule_and_sync_values(web, path, value, field):
    config = web.config()
    config[path[0]][path[1]] = value
    response = web.client.post("/api/v3/config/raw/main", json=config)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["details"]["field"] == field


def test_a_bad_value_the_raw_editor_leaves_as_stored_does_not_block_it(web):
    config = web.config()
    config["sync"]["follower_position"] = "centre"  # from an older hand edit
    web.app.extensions["ledpanel"].store.save(config)
    config["brightness"] = 55
    response = web.client.post("/api/v3/config/raw/main", json=config)
    assert response.status_code == 200, response.get_json()
    assert web.config()["brightness"] == 55
