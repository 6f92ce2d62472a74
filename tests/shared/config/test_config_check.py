"""One set of rules for a whole config: the raw editor, every save, the display's reload
of a hand edit and ``ledpanel config validate`` refuse the same values, naming the key."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from shared.cli import main
from shared.config.check import config_problems, problem_lines
from shared.config.raw_save import plan_raw_save
from shared.config.save_rules import plan_main_save
from shared.config.template import load_template
from shared.errors import LedpanelError

BAD = [
    ({"brightness": 500}, "brightness"),
    ({"timezone": "Mars/Base"}, "timezone"),
    ({"display": {"hardware": {"rows": 33}}}, "display.hardware.rows"),
    ({"display": {"hardware": {"hardware_mapping": "adafruit-hatt"}}},
     "display.hardware.hardware_mapping"),
    ({"schedule": {"start_time": "25:00"}}, "schedule.start_time"),
    ({"brigthness": 70}, "brigthness"),
    ({"web": {"port": 70000}}, "web.port"),
]


def merged(change: dict[str, Any]) -> dict[str, Any]:
    config = load_template()
    for key, value in change.items():
        if isinstance(value, dict):
            node = config[key]
            for inner, item in value.items():
                if isinstance(item, dict):
                    node[inner] = {**node[inner], **item}
                else:
                    node[inner] = item
        else:
            config[key] = value
    return config


def no_schema(plugin_id: str) -> None:
    raise AssertionError(f"no plugin should be asked for: {plugin_id}")


@pytest.mark.parametrize(("change", "key"), BAD)
def test_every_reader_refuses_the_same_value_naming_its_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any],
        key: str) -> None:
    template = load_template()
    bad = merged(change)
    # The display's check of a hand edit, against the config it runs.
    lines = problem_lines(config_problems(bad, stored=template, plugin_ids=set(),
                                          template=template))
    assert any(line.startswith(f"{key}:") for line in lines), lines
    # The raw editor.
    with pytest.raises(LedpanelError) as raw:
        plan_raw_save(template, bad, plugin_ids=set())
    assert key in raw.value.message
    # A JSON save of only that value.
    with pytest.raises(LedpanelError) as saved:
        plan_main_save(copy.deepcopy(template), {}, change, form=False, schema_for=no_schema,
                       plugin_ids=set())
    assert key in saved.value.message
    # The command line, over the whole file.
    (tmp_path / "config.json").write_text(json.dumps(bad))
    assert main(["config", "validate", "--config-dir", str(tmp_path),
                 "--plugins-dir", str(tmp_path / "none")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"config.json: {key}:") for line in out), out


def test_validate_lists_every_problem_of_a_file_each_with_its_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = load_template()
    bad.update(brightness=500, timezone="Mars/Base", brigthness=70, web={"port": 70000})
    bad["display"]["hardware"].update(rows=33, hardware_mapping="adafruit-hatt")
    bad["schedule"]["start_time"] = "25:00"
    (tmp_path / "config.json").write_text(json.dumps(bad))
    assert main(["config", "validate", "--config-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    for _change, key in BAD:
        assert any(line.startswith(f"config.json: {key}:") for line in out), (key, out)


def test_a_stored_problem_does_not_block_a_change_elsewhere() -> None:
    template = load_template()
    stored = {**template, "brightness": 500}
    changed = {**stored, "timezone": "Europe/Berlin"}
    assert config_problems(changed, stored=stored, plugin_ids=set(), template=template) == []
    assert config_problems(changed, plugin_ids=set(), template=template) != []
