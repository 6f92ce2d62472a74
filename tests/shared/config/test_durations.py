"""Every display duration has a minimum: saves refuse less, naming it, and the display
clamps an older config that holds less (it would spin a core switching plugins)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from display_service.control.rotation import build_entries
from shared.config.check import config_problems
from shared.config.limits import MIN_DISPLAY_SECONDS
from shared.config.save_rules import plan_main_save
from shared.config.template import load_template
from shared.errors import ValidationError
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state, state

SCHEMA = {"type": "object", "properties": {
    "enabled": {"type": "boolean"}, "display_duration": {"type": "number"},
    "dynamic_duration": {"type": "object"}}}


def save(body: dict[str, Any]) -> dict[str, Any]:
    stored = {**load_template(), "clock": {"enabled": True}}
    new, _, _ = plan_main_save(stored, {}, body, form=False, schema_for=lambda _: SCHEMA,
                               plugin_ids=["clock"])
    return new


@pytest.mark.parametrize(("body", "field"), [
    ({"display_durations": {"clock": 0.001}}, "display_durations.clock"),
    ({"display_durations": {"clock": 1e-300}}, "display_durations.clock"),
    ({"clock": {"display_duration": 0.5}}, "clock.display_duration"),
    ({"clock": {"dynamic_duration": {"max_duration_seconds": 0.01}}},
     "clock.dynamic_duration.max_duration_seconds"),
])
def test_durations_under_the_minimum_are_refused_naming_it(body, field):
    with pytest.raises(ValidationError) as caught:
        save(body)
    assert caught.value.error_code == "OUT_OF_RANGE"
    assert caught.value.details["field"] == field
    assert f"{field} must be at least {MIN_DISPLAY_SECONDS:g}" in caught.value.message


def test_the_minimum_itself_is_accepted_and_a_stored_short_one_blocks_nothing():
    assert save({"display_durations": {"clock": 1}})["display_durations"]["clock"] == 1
    stored = {**load_template(), "display_durations": {"clock": 0.001}}
    edited = {**stored, "brightness": 50}
    assert config_problems(edited, stored=stored, template=load_template()) == []


def test_the_rotation_clamps_short_durations_from_an_older_config():
    entries = build_entries(["a", "b", "c"], lambda p: [p], lambda _p: 1e-300,
                            {"a": 0.001, "b": 5}, {"c": 0.0001}.get)
    assert [(e.plugin_id, e.duration, e.cap) for e in entries] == [
        ("a", MIN_DISPLAY_SECONDS, None), ("b", 5, None),
        ("c", MIN_DISPLAY_SECONDS, MIN_DISPLAY_SECONDS)]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.timeout(120)
def test_a_display_on_an_older_config_with_tiny_durations_does_not_spin(tmp_path: Path):
    instance = make_instance(tmp_path)
    config_file = instance.config_dir / "config.json"
    config = json.loads(config_file.read_text())
    other = instance.plugins_dir / "other"
    other.mkdir()
    for name in ("manager.py", "config_schema.json"):
        (other / name).write_text((instance.plugins_dir / "still" / name).read_text())
    manifest = json.loads((instance.plugins_dir / "still" / "manifest.json").read_text())
    (other / "manifest.json").write_text(json.dumps({**manifest, "id": "other",
                                                     "display_modes": ["other"]}))
    config.update(other={"enabled": True}, display_durations={"still": 1e-300, "other": 0.001})
    config_file.write_text(json.dumps(config))
    with running(instance) as (display, _web, _url):
        running_state(instance, display)
        pid = display.process.pid
        before, started = cpu_seconds(pid), time.monotonic()
        time.sleep(3)
        share = (cpu_seconds(pid) - before) / (time.monotonic() - started)
        assert share < 0.4, f"the display used {share:.0%} of a core"
        assert state(instance).get("plugin_id") in ("still", "other")
