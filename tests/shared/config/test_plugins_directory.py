"""Where plugins come from is a folder of the install tree, on every save path, and the
running display never changes it: it is read at start, like the panel settings."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

import shared.config.values as values
from display_service.config_source import ConfigSource
from shared.config.check import config_problems
from shared.config.hardware_rule import restart_settings_changed
from shared.config.raw_save import plan_raw_save
from shared.config.save_rules import plan_main_save
from shared.config.store import ConfigStore
from shared.config.template import load_template
from shared.errors import ValidationError
from shared.paths import ROOT

KEY = "plugin_system.plugins_directory"


def problems(value: object) -> list[str]:
    config = load_template()
    config["plugin_system"]["plugins_directory"] = value
    return [e.message for e in config_problems(config, template=load_template())]


@pytest.mark.parametrize("value", ["plugin-repos", "plugins", "plugin-repos/../plugins",
                                   str(ROOT / "plugin-repos"), "plugin-repos/mine"])
def test_folders_of_the_install_tree_are_accepted(value: str) -> None:
    assert problems(value) == []


@pytest.mark.parametrize("value", ["/tmp/evil", "/", "..", "../elsewhere", ".",
                                   "plugin-repos/../../x", "", "config", "display_service",
                                   "web_service/static/..", "plugins/../.venv/lib"])
def test_anything_else_is_refused_naming_the_key_and_the_rule(value: str) -> None:
    found = problems(value)
    assert len(found) == 1 and found[0].startswith(KEY), found
    assert "install tree" in found[0]


@pytest.mark.parametrize("value", [5, None])
def test_a_value_that_is_not_text_is_refused_once(value: object) -> None:
    assert problems(value) == [f"{KEY} must be text (got {value!r})"]


def test_a_symlink_out_of_the_install_tree_is_refused(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "install"
    (root / "plugin-repos").mkdir(parents=True)
    os.symlink(tmp_path / "outside", root / "sneaky")
    (tmp_path / "outside").mkdir()
    monkeypatch.setattr(values, "ROOT", root)
    assert problems("plugin-repos") == []
    assert problems("sneaky") and "symlinks resolved" in problems("sneaky")[0]


@pytest.mark.parametrize("path", ["json", "form", "raw"])
def test_every_save_path_refuses_a_directory_outside(path: str) -> None:
    stored = load_template()
    with pytest.raises(ValidationError) as caught:
        if path == "raw":
            replacement = copy.deepcopy(stored)
            replacement["plugin_system"]["plugins_directory"] = "/tmp/evil"
            plan_raw_save(stored, replacement)
        else:
            body = ({"plugin_system.plugins_directory": "/tmp/evil"} if path == "form"
                    else {"plugin_system": {"plugins_directory": "/tmp/evil"}})
            plan_main_save(stored, {}, body, form=path == "form", schema_for=lambda _: None)
    assert caught.value.details["field"] == KEY
    assert caught.value.status == 400


def test_a_changed_plugins_directory_asks_for_a_restart() -> None:
    stored = load_template()
    new = copy.deepcopy(stored)
    new["plugin_system"]["plugins_directory"] = "plugins"
    assert restart_settings_changed(stored, new) == [KEY]


def test_the_display_keeps_the_plugins_directory_it_started_with(store: ConfigStore) -> None:
    source = ConfigSource(store)
    running, problem, _ = source.load_initial()
    assert problem is None
    store.update(lambda main, secrets: (
        {**main, "brightness": 42, "plugin_system": {"plugins_directory": "plugins"}}, secrets))
    config, problem = source.read(running)
    assert problem is None and config is not None
    assert config["brightness"] == 42  # the rest of the edit is applied
    assert config["plugin_system"]["plugins_directory"] == "plugin-repos"
