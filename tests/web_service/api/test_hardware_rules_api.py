"""Save rule 4 through the real routes: hardware settings that break the rules answer 400."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.hardware import board

MAIN = "/api/v3/config/main"
RAW = "/api/v3/config/raw/main"


def hardware(**values: Any) -> dict[str, Any]:
    return {"display": {"hardware": values}}


def store(web, mutate) -> dict[str, Any]:
    """Write a stored config directly (as an older version or a hand edit would)."""
    config = web.config()
    mutate(config)
    web.paths.config_file.write_text(json.dumps(config))
    return config


def refused(response, setting: str) -> dict[str, Any]:
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["error_code"] == "HARDWARE_SETTING_REFUSED"
    assert setting in body["message"]
    assert setting in [p["setting"] for p in body["details"]["problems"]]
    return body


@pytest.fixture
def pi5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    monkeypatch.setattr(board, "DEVICE_TREE_MODEL", model)


def test_parallel_beyond_the_mappings_outputs_is_refused_and_nothing_written(web) -> None:
    before = web.paths.config_file.read_bytes()
    body = refused(web.client.post(MAIN, json=hardware(parallel=3)),
                   "display.hardware.parallel")
    assert body["details"]["field"] == "display.hardware.parallel"
    assert "'vendor-hat' has 1 output" in body["message"]
    assert web.paths.config_file.read_bytes() == before


def test_parallel_within_the_outputs_of_a_three_output_mapping_is_saved(web) -> None:
    response = web.client.post(MAIN, json=hardware(parallel=3, hardware_mapping="regular"))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["data"]["warnings"] == []
    assert web.config()["display"]["hardware"]["parallel"] == 3


def test_misspelled_mapping_is_refused_with_the_closest_name(web) -> None:
    body = refused(web.client.post(MAIN, json=hardware(hardware_mapping="vendor-hatt")),
                   "display.hardware.hardware_mapping")
    assert "did you mean 'vendor-hat'" in body["message"]


def test_the_librarys_own_name_is_refused_with_ours(web) -> None:
    body = refused(web.client.post(MAIN, json=hardware(hardware_mapping="adafruit-hat")),
                   "display.hardware.hardware_mapping")
    assert "use 'vendor-hat'" in body["message"]


@pytest.mark.parametrize(("setting", "value"), [
    ("rows", 6), ("rows", 66), ("rows", 33), ("cols", 8), ("cols", 256),
    ("chain_length", 0), ("chain_length", 256), ("led_rgb_sequence", "RGG"),
    ("pixel_mapper_config", "Rotate:45"),
])
def test_single_settings_outside_the_rules_are_refused(web, setting: str, value: Any) -> None:
    refused(web.client.post(MAIN, json=hardware(**{setting: value})),
            f"display.hardware.{setting}")


def test_form_bodies_follow_the_same_rule(web) -> None:
    before = web.paths.config_file.read_bytes()
    response = web.client.post(MAIN, data={"display.hardware.rows": "100"})
    refused(response, "display.hardware.rows")
    assert web.paths.config_file.read_bytes() == before
    assert web.bus.read(keys.CONFIG_CHANGED) is None


@pytest.mark.parametrize("value", [90, 270, 0, 180])
def test_right_angle_orientations_are_accepted(web, value: int) -> None:
    response = web.client.post(MAIN, json={"orientation": value})
    assert response.status_code == 200, response.get_json()


def test_other_orientations_are_refused(web) -> None:
    refused(web.client.post(MAIN, json={"orientation": 45}), "orientation")


def test_combination_is_reported_when_the_save_changes_a_field_involved(web) -> None:
    web.client.post(MAIN, json=hardware(parallel=3, hardware_mapping="regular"))
    # The mapping is valid alone, but not with the stored parallel.
    body = refused(web.client.post(MAIN, json=hardware(hardware_mapping="vendor-hat")),
                   "display.hardware.parallel")
    assert "hardware_mapping" in body["message"]


def test_combination_with_a_chain_is_checked_against_stored_values(web) -> None:
    ok = web.client.post(MAIN, json=hardware(pixel_mapper_config="U-mapper"))
    assert ok.status_code == 200, ok.get_json()  # stored chain_length 2 is even
    body = refused(web.client.post(MAIN, json=hardware(chain_length=3)),
                   "display.hardware.pixel_mapper_config")
    assert "chain_length" in body["message"]


def test_unrelated_save_keeps_a_stored_bad_mapping(web) -> None:
    store(web, lambda c: c["display"]["hardware"].update(hardware_mapping="adafruit-hatt",
                                                         parallel=3))
    response = web.client.post(MAIN, json={"brightness": 40})
    assert response.status_code == 200, response.get_json()
    stored = web.config()
    assert stored["brightness"] == 40
    assert stored["display"]["hardware"]["hardware_mapping"] == "adafruit-hatt"


def test_display_form_reposting_the_stored_bad_mapping_is_saved(web) -> None:
    store(web, lambda c: c["display"]["hardware"].update(hardware_mapping="adafruit-hatt"))
    response = web.client.post(MAIN, data={
        "__form_section": "display.hardware",
        "display.hardware.hardware_mapping": "adafruit-hatt",
        "display.hardware.rows": "16",
    })
    assert response.status_code == 200, response.get_json()
    assert web.config()["display"]["hardware"]["hardware_mapping"] == "adafruit-hatt"
    assert web.config()["display"]["hardware"]["rows"] == 16


def test_parallel_is_still_bounded_while_the_stored_mapping_is_unknown(web) -> None:
    store(web, lambda c: c["display"]["hardware"].update(hardware_mapping="adafruit-hatt"))
    ok = web.client.post(MAIN, json=hardware(parallel=2))
    assert ok.status_code == 200, ok.get_json()
    refused(web.client.post(MAIN, json=hardware(parallel=7)), "display.hardware.parallel")


def test_emulator_mode_only_warns_and_saves(web) -> None:
    response = web.client.post(MAIN, json={"display": {"emulator": True,
                                                       "hardware": {"parallel": 3}}})
    body = response.get_json()
    assert response.status_code == 200, body
    assert [(w["setting"], w["severity"]) for w in body["data"]["warnings"]] == [
        ("display.hardware.parallel", "warning")]
    assert web.config()["display"]["hardware"]["parallel"] == 3


@pytest.mark.usefixtures("pi5")
def test_fifth_generation_slowdown_guidance_warns_only(web) -> None:
    response = web.client.post(MAIN, json={"display": {"runtime": {"gpio_slowdown": 5}}})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["data"]["warnings"][0]["setting"] == "display.runtime.gpio_slowdown"
    assert "start at 1" in body["data"]["warnings"][0]["message"]


@pytest.mark.usefixtures("pi5")
def test_fifth_generation_refuses_mappings_its_backend_lacks(web) -> None:
    refused(web.client.post(MAIN, json=hardware(hardware_mapping="regular-gen1")),
            "display.hardware.hardware_mapping")


def test_raw_editor_refuses_a_bad_setting_it_changes(web) -> None:
    replacement = web.config()
    replacement["display"]["hardware"]["parallel"] = 2
    before = web.paths.config_file.read_bytes()
    refused(web.client.post(RAW, json=replacement), "display.hardware.parallel")
    assert web.paths.config_file.read_bytes() == before
    assert web.bus.read(keys.CONFIG_CHANGED) is None


def test_raw_editor_keeps_a_stored_bad_setting_it_does_not_change(web) -> None:
    stored = store(web, lambda c: c["display"]["hardware"].update(hardware_mapping="nope"))
    stored["brightness"] = 33
    response = web.client.post(RAW, json=stored)
    assert response.status_code == 200, response.get_json()
    assert web.config()["display"]["hardware"]["hardware_mapping"] == "nope"


# -- sizes are bounded ----------------------------------------------------------------

@pytest.mark.parametrize("mapper", [
    "Remap:100000,100000|0,0n",     # ~30 GB of canvas
    "Remap:64,32|64,0n",            # the panel lies outside the declared size
])
def test_a_remap_the_panel_cannot_have_is_refused(web, mapper: str) -> None:
    before = web.paths.config_file.read_bytes()
    refused(web.client.post(MAIN, json=hardware(chain_length=1, pixel_mapper_config=mapper)),
            "display.hardware.pixel_mapper_config")
    assert web.paths.config_file.read_bytes() == before


# -- saves that need a display service restart ------------------------------------------

RESTART = "Saved; restart the display service to apply the panel settings"


@pytest.mark.parametrize(("body", "setting"), [
    (hardware(rows=16), "display.hardware.rows"),
    ({"display": {"runtime": {"gpio_slowdown": 2}}}, "display.runtime.gpio_slowdown"),
    ({"display": {"double_sided": True}}, "display.double_sided"),
    ({"orientation": 90}, "orientation"),
    ({"display": {"emulator_adapter": "browser"}}, "display.emulator_adapter"),
])
def test_a_panel_setting_save_asks_for_a_restart(web, body: dict[str, Any],
                                                 setting: str) -> None:
    web.start_display()
    response = web.client.post(MAIN, json=body)
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["data"]["restart_required"] is True
    assert answer["data"]["restart_settings"] == [setting]
    assert answer["message"] == RESTART


@pytest.mark.parametrize("body", [
    {"brightness": 40},
    hardware(brightness=40),          # the running display applies it at once
    hardware(rows=32),                # as stored: nothing changed
])
def test_other_saves_need_no_restart(web, body: dict[str, Any]) -> None:
    web.start_display()
    answer = web.client.post(MAIN, json=body).get_json()
    assert answer["status"] == "success", answer
    assert answer["data"]["restart_required"] is False
    assert answer["data"]["restart_settings"] == []
    assert answer["message"] == "Configuration saved"


def test_a_form_save_asks_for_a_restart_too(web) -> None:
    web.start_display()
    response = web.client.post(MAIN, data={"__form_section": "display.hardware",
                                           "display.hardware.rows": "16"})
    assert response.get_json()["data"]["restart_required"] is True


def test_the_raw_editor_asks_for_a_restart_when_a_panel_setting_changed(web) -> None:
    web.start_display()
    replacement = web.config()
    replacement["brightness"] = 20
    answer = web.client.post(RAW, json=replacement).get_json()
    assert answer["data"]["restart_required"] is False
    assert answer["message"] == "Configuration file replaced"
    replacement["display"]["hardware"]["pwm_bits"] = 8
    answer = web.client.post(RAW, json=replacement).get_json()
    assert answer["data"]["restart_required"] is True
    assert answer["data"]["restart_settings"] == ["display.hardware.pwm_bits"]
    assert answer["message"] == RESTART


def test_restart_is_asked_for_only_when_the_running_display_differs(web) -> None:
    web.start_display()
    first = web.client.post(MAIN, json=hardware(rows=16)).get_json()
    assert first["data"]["restart_settings"] == ["display.hardware.rows"]
    status = web.client.get("/api/v3/system/status").get_json()["data"]
    assert status["hardware"]["restart_required"] is True
    assert status["hardware"]["restart_settings"] == ["display.hardware.rows"]
    back = web.client.post(MAIN, json=hardware(rows=32)).get_json()  # what it runs with
    assert back["data"]["restart_required"] is False and back["message"] == "Configuration saved"
    assert web.client.get("/api/v3/system/status").get_json()["data"]["hardware"][
        "restart_required"] is False


def test_no_restart_is_asked_for_while_the_display_is_not_running(web) -> None:
    answer = web.client.post(MAIN, json=hardware(rows=16)).get_json()
    assert answer["status"] == "success"
    assert answer["data"]["restart_required"] is False  # it reads them when it starts
