"""The atomic writer: whole files or nothing, no temp files left, typed errors."""

from __future__ import annotations

import json
import os
import stat

import pytest

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_bytes, atomic_write_json, read_json


def test_writes_json_with_the_requested_mode(tmp_path):
    target = tmp_path / "a.json"
    atomic_write_json(target, {"x": 1}, mode=0o640)
    assert read_json(target) == {"x": 1}
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_replaces_an_existing_file_with_a_new_inode(tmp_path):
    target = tmp_path / "a.json"
    atomic_write_json(target, {"v": 1})
    inode = target.stat().st_ino
    atomic_write_json(target, {"v": 2})
    assert read_json(target) == {"v": 2}
    assert target.stat().st_ino != inode  # renamed over, never rewritten in place


def test_creates_missing_parent_directories(tmp_path):
    target = tmp_path / "deep" / "er" / "a.json"
    atomic_write_json(target, [1, 2])
    assert json.loads(target.read_text()) == [1, 2]


def test_temp_file_can_live_in_another_directory(tmp_path):
    target, staging = tmp_path / "bus" / "k.json", tmp_path / "bus" / ".tmp"
    atomic_write_json(target, {"k": True}, tmp_dir=staging)
    assert read_json(target) == {"k": True}
    assert list(staging.iterdir()) == []


def test_failure_raises_a_typed_error_and_leaves_the_old_file_and_no_temp(tmp_path):
    target = tmp_path / "a.json"
    atomic_write_json(target, {"old": True})
    target_dir_as_file = tmp_path / "a.json" / "child.json"  # parent is a file
    with pytest.raises(AtomicWriteError) as caught:
        atomic_write_bytes(target_dir_as_file, b"{}")
    assert "child.json" in caught.value.message
    assert read_json(target) == {"old": True}
    assert sorted(os.listdir(tmp_path)) == ["a.json"]


def test_unserialisable_data_never_touches_the_file(tmp_path):
    target = tmp_path / "a.json"
    atomic_write_json(target, {"old": True})
    with pytest.raises(TypeError):
        atomic_write_json(target, {"bad": object()})
    assert read_json(target) == {"old": True}
    assert sorted(os.listdir(tmp_path)) == ["a.json"]
