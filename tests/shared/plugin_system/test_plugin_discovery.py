"""Discovery: which folders are plugins, which id they get, and how problems are reported."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.plugin_system.discovery import discover

MakePlugin = Callable[..., Path]


def test_finds_plugins_sorted_by_id_skipping_hidden_and_non_plugin_dirs(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(tmp_path, "zeta")
    make_plugin(tmp_path, "alpha")
    make_plugin(tmp_path, "hidden", dir_name=".hidden")
    (tmp_path / "not-a-plugin").mkdir()
    (tmp_path / "README.md").write_text("x", encoding="utf-8")

    infos = discover(tmp_path)

    assert [info.id for info in infos] == ["alpha", "zeta"]
    assert all(info.ok and info.errors == [] and info.warnings == [] for info in infos)
    assert infos[0].directory == tmp_path / "alpha"


def test_follows_symlinked_plugin_directories(tmp_path: Path, make_plugin: MakePlugin) -> None:
    source = make_plugin(tmp_path / "elsewhere", "linked")
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "linked").symlink_to(source, target_is_directory=True)
    (tmp_path / "plugins" / "dangling").symlink_to(tmp_path / "missing")

    infos = discover(tmp_path / "plugins")

    assert [(info.id, info.ok) for info in infos] == [("linked", True)]


def test_manifest_id_is_the_plugin_id_and_a_different_dir_name_warns(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(tmp_path, "weather", dir_name="ledpanel-weather")

    [info] = discover(tmp_path)

    assert info.id == "weather"
    assert info.ok
    assert info.warnings == ["id 'weather' differs from its directory name 'ledpanel-weather'"]


def test_duplicate_ids_keep_the_matching_directory_and_report_the_other(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(tmp_path, "clock")
    make_plugin(tmp_path, "clock", dir_name="a-clock-copy")

    infos = discover(tmp_path)

    keeper = [info for info in infos if info.ok]
    assert [info.directory.name for info in keeper] == ["clock"]
    [duplicate] = [info for info in infos if not info.ok]
    assert duplicate.errors[0] == f"duplicate id 'clock': also in {tmp_path / 'clock'}"


def test_missing_compatible_versions_is_a_warning_and_the_plugin_stays_loadable(
    tmp_path: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture
) -> None:
    make_plugin(tmp_path, "community", manifest_overrides={"compatible_versions": None})

    with caplog.at_level(logging.WARNING):
        [info] = discover(tmp_path)

    assert info.ok
    assert info.warnings == ["compatible_versions: is required"]
    assert "community: compatible_versions: is required" in caplog.messages


def test_broken_plugins_are_reported_with_their_id_and_never_raise(
    tmp_path: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture
) -> None:
    make_plugin(tmp_path, "badjson", manifest_text='{"id": "badjson",')
    make_plugin(tmp_path, "noclass", manifest_overrides={"class_name": None})
    make_plugin(tmp_path, "noentry", manifest_overrides={"entry_point": "main.py"})
    make_plugin(tmp_path, "good")

    with caplog.at_level(logging.WARNING):
        infos = {info.id: info for info in discover(tmp_path)}

    assert infos["good"].ok
    assert "is not valid JSON" in infos["badjson"].errors[0]
    assert infos["noclass"].errors == ["class_name: is required"]
    assert infos["noentry"].errors == [f"entry_point: main.py not found in {tmp_path / 'noentry'}"]
    skipped = [m for m in caplog.messages if ": skipped: " in m]
    assert sorted(m.split(":")[0] for m in skipped) == ["badjson", "noclass", "noentry"]
    assert "noclass: skipped: class_name: is required" in caplog.messages


def test_entry_point_defaults_to_manager_py(tmp_path: Path, make_plugin: MakePlugin) -> None:
    make_plugin(tmp_path, "plain", manifest_overrides={"entry_point": None})

    [info] = discover(tmp_path)

    assert info.ok
    assert info.entry_point == "manager.py"
    assert info.manifest["entry_point"] == "manager.py"
    assert info.warnings == ["entry_point: is required (using manager.py)"]


def test_missing_plugins_directory_yields_nothing(tmp_path: Path) -> None:
    assert discover(tmp_path / "absent") == []


def test_logging_can_be_turned_off(
    tmp_path: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture
) -> None:
    make_plugin(tmp_path, "noclass", manifest_overrides={"class_name": None})

    with caplog.at_level(logging.DEBUG):
        discover(tmp_path, log=False)

    assert caplog.messages == []
