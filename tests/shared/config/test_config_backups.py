"""Automatic backups: naming, rotation to five, never overwriting."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

from shared.config.backups import KEEP_BACKUPS, list_backups, make_backup
from shared.paths import Paths

NAME = re.compile(r"config\.json\.backup\.\d{8}_\d{6}_\d{6}\Z")


def _write_config(paths: Paths, value: int) -> None:
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(json.dumps({"n": value}))


def test_no_config_means_no_backup(paths: Paths) -> None:
    assert make_backup(paths) is None
    assert list_backups(paths) == []


def test_backup_is_named_by_local_time_with_microseconds(paths: Paths) -> None:
    _write_config(paths, 1)
    when = datetime(2024, 3, 5, 7, 8, 9, 123456)
    backup = make_backup(paths, now=when)
    assert backup is not None
    assert backup.parent == paths.backups_dir
    assert backup.name == "config.json.backup.20240305_070809_123456"
    assert json.loads(backup.read_text()) == {"n": 1}


def test_backups_are_rotated_to_the_newest_five(paths: Paths) -> None:
    start = datetime(2024, 1, 1, 12, 0, 0)
    for n in range(8):
        _write_config(paths, n)
        make_backup(paths, now=start + timedelta(seconds=n))
    backups = list_backups(paths)
    assert len(backups) == KEEP_BACKUPS == 5
    assert [json.loads(p.read_text())["n"] for p in backups] == [3, 4, 5, 6, 7]
    assert all(NAME.match(p.name) for p in backups)


def test_backups_in_the_same_microsecond_never_overwrite(paths: Paths) -> None:
    when = datetime(2024, 1, 1, 12, 0, 0, 999999)
    for n in range(3):
        _write_config(paths, n)
        make_backup(paths, now=when)
    names = [p.name for p in list_backups(paths)]
    assert names == [
        "config.json.backup.20240101_120000_999999",
        "config.json.backup.20240101_120001_000000",
        "config.json.backup.20240101_120001_000001",
    ]
    assert [json.loads(p.read_text())["n"] for p in list_backups(paths)] == [0, 1, 2]


def test_a_clock_stepping_back_still_keeps_the_newest_backup(paths: Paths) -> None:
    _write_config(paths, 1)
    make_backup(paths, now=datetime(2030, 1, 1))
    _write_config(paths, 2)
    newest = make_backup(paths, now=datetime(2020, 1, 1))
    assert newest == list_backups(paths)[-1]
    assert json.loads(newest.read_text()) == {"n": 2}


def test_real_clock_backups_sort_in_creation_order(paths: Paths) -> None:
    for n in range(7):
        _write_config(paths, n)
        make_backup(paths)
    assert [json.loads(p.read_text())["n"] for p in list_backups(paths)] == [2, 3, 4, 5, 6]


def test_unrelated_files_in_the_backups_folder_are_left_alone(paths: Paths) -> None:
    paths.backups_dir.mkdir(parents=True)
    (paths.backups_dir / "config.json.backup.manual").write_text("{}")
    for n in range(7):
        _write_config(paths, n)
        make_backup(paths)
    assert (paths.backups_dir / "config.json.backup.manual").exists()
    assert len(list_backups(paths)) == 5
