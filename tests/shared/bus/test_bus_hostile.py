"""The bus reads only regular files, never blocks, and cleans up after killed writers."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.bus import core as keys
from shared.bus.core import MAX_BYTES, Bus
from shared.bus.upkeep import STALE_TEMP_AFTER

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def bus(tmp_path: Path) -> Bus:
    directory = tmp_path / "bus"
    directory.mkdir()
    return Bus(directory)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _symlink(path: Path) -> None:
    target = path.parent.parent / "elsewhere.json"
    target.write_text('{"from": "outside"}')
    path.symlink_to(target)


def _symlink_to_fifo(path: Path) -> None:
    target = path.parent.parent / "elsewhere.fifo"
    os.mkfifo(target)
    path.symlink_to(target)


def _too_large(path: Path) -> None:
    path.write_text('{"pad": "' + "x" * MAX_BYTES + '"}')


def _too_deep(path: Path) -> None:
    path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")


HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (_fifo, "a FIFO"),
    "folder": (_folder, "a directory"),
    "symlink": (_symlink, "a symlink"),
    "symlink_to_fifo": (_symlink_to_fifo, "a symlink"),
    "too_large": (_too_large, "more than the"),
    "too_deep": (_too_deep, "nested deeper than"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_file_reads_as_absent_at_once_and_is_reported(
        bus: Bus, kind: str, caplog: pytest.LogCaptureFixture) -> None:
    plant, words = HOSTILE[kind]
    plant(bus.path(keys.DISPLAY_STATE))
    caplog.set_level(logging.WARNING, logger="shared.bus.core")
    started = time.monotonic()
    for _ in range(20):
        assert bus.read(keys.DISPLAY_STATE) is None
    # No read blocked (a FIFO would block for ever); generous, for a loaded machine.
    assert time.monotonic() - started < 60
    assert words in bus.problems()["display_state.json"]
    warnings = [r.getMessage() for r in caplog.records if "display_state.json" in r.getMessage()]
    assert len(warnings) == 1 and words in warnings[0]  # once, not once per read


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_key_works_again_once_the_hostile_file_is_gone(bus: Bus, kind: str) -> None:
    path = bus.path(keys.CONFIG_CHANGED)
    HOSTILE[kind][0](path)
    assert bus.read(keys.CONFIG_CHANGED) is None
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink()
    bus.publish(keys.CONFIG_CHANGED, {"seq": 1})
    assert bus.read(keys.CONFIG_CHANGED) == {"seq": 1}
    assert bus.problems() == {}


def test_a_publish_replaces_a_fifo_or_symlink_in_its_place(bus: Bus, tmp_path: Path) -> None:
    os.mkfifo(bus.path(keys.HARDWARE_STATUS))
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    bus.path(keys.PREVIEW_VIEWER).symlink_to(outside)
    bus.publish(keys.HARDWARE_STATUS, {"ok": True})
    bus.publish(keys.PREVIEW_VIEWER, {"until": 1})
    assert bus.read(keys.HARDWARE_STATUS) == {"ok": True}
    assert bus.read(keys.PREVIEW_VIEWER) == {"until": 1}
    assert outside.read_text() == "{}"  # the link was replaced, its target untouched


def test_hostile_queued_commands_are_skipped_and_the_rest_taken(bus: Bus) -> None:
    first = bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {"action": "start"})
    name = keys.DISPLAY_ON_DEMAND_REQUEST
    os.mkfifo(bus.directory / f"{name}@00000000000000000001-fifo.json")
    (bus.directory / f"{name}@00000000000000000002-folder.json").mkdir()
    second = bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {"action": "stop"})
    taken = bus.take_all(keys.DISPLAY_ON_DEMAND_REQUEST)
    assert [t["request_id"] for t in taken] == [first, second]
    # The FIFO was consumed (read as nothing); the folder cannot be claimed and stays.
    assert bus.take_all(keys.DISPLAY_ON_DEMAND_REQUEST) == []
    left = sorted(p.name for p in bus.directory.iterdir() if p.name != ".tmp")
    assert left == [f"{name}@00000000000000000002-folder.json"]


def test_a_temp_folder_that_is_not_a_folder_does_not_stop_writes(bus: Bus) -> None:
    (bus.directory / ".tmp").write_text("junk")
    bus.publish(keys.DISPLAY_STATE, {"n": 1})
    request_id = bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {"action": "stop"})
    assert bus.read(keys.DISPLAY_STATE) == {"n": 1}
    assert [r["request_id"] for r in bus.take_all(keys.DISPLAY_ON_DEMAND_REQUEST)] == [request_id]
    assert ".tmp" in bus.problems()


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def _dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


def test_stale_temp_files_are_removed_and_fresh_ones_kept(bus: Bus) -> None:
    tmp = bus.directory / ".tmp"
    tmp.mkdir()
    old_in_tmp = tmp / ".display_state.json.abc123.tmp"
    old_beside = bus.directory / ".config_changed.json.def456.tmp"
    fresh = tmp / ".display_state.json.ghi789.tmp"
    other = bus.directory / "notes.txt"
    for path in (old_in_tmp, old_beside, fresh, other):
        path.write_text("{")
    for path in (old_in_tmp, old_beside, other):
        _age(path, STALE_TEMP_AFTER + 5)
    os.mkfifo(bus.directory / ".odd.tmp")
    _age(bus.directory / ".odd.tmp", STALE_TEMP_AFTER + 5)
    assert bus.remove_stale_temp_files() == 2
    assert not old_in_tmp.exists() and not old_beside.exists()
    assert fresh.exists() and other.exists()  # a write in progress; not ours
    assert (bus.directory / ".odd.tmp").exists()  # only regular files are removed


def test_a_command_claimed_by_a_dead_consumer_goes_back_into_the_queue(bus: Bus) -> None:
    tmp = bus.directory / ".tmp"
    tmp.mkdir()
    queued = f"{keys.DISPLAY_ON_DEMAND_REQUEST}@{time.time_ns():020d}-abc.json"
    dead = tmp / f"claimed-{_dead_pid()}-1-{queued}"
    dead.write_text('{"action": "stop", "request_id": "abc"}')
    alive = tmp / f"claimed-{os.getpid()}-1-{queued.replace('abc', 'def')}"
    alive.write_text('{"action": "stop", "request_id": "def"}')
    assert bus.remove_stale_temp_files() == 1
    assert alive.exists()  # its consumer is still reading it
    assert [r["request_id"] for r in bus.take_all(keys.DISPLAY_ON_DEMAND_REQUEST)] == ["abc"]
