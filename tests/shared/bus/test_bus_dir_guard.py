"""A bus folder deleted and made anew is noticed; the lock and the records come back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, DaemonLock, lock_holder
from shared.bus.dir_guard import BusDirGuard
from shared.errors import AtomicWriteError, CacheDirError

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    directory = tmp_path / "bus"
    directory.mkdir()
    return directory


def test_a_remade_folder_is_locked_again_and_reported_once(folder: Path) -> None:
    lock = DaemonLock.acquire(folder, DISPLAY)
    calls: list[str] = []
    guard = BusDirGuard(folder, lock, lambda: calls.append("remade"))
    assert guard.check() is False
    shutil.rmtree(folder)
    folder.mkdir()
    assert lock_holder(folder, DISPLAY) is None  # what the web would see: stopped
    assert guard.check() is True and calls == ["remade"]
    assert lock_holder(folder, DISPLAY) == os.getpid()
    assert guard.check() is False and calls == ["remade"]
    lock.release()


def test_a_deleted_folder_is_made_again_with_its_mode(folder: Path) -> None:
    folder.chmod(0o2775)
    lock = DaemonLock.acquire(folder, DISPLAY)
    guard = BusDirGuard(folder, lock, lambda: None)
    shutil.rmtree(folder)
    assert guard.check() is True
    assert folder.is_dir() and folder.stat().st_mode & 0o7777 == 0o2775
    assert lock_holder(folder, DISPLAY) == os.getpid()
    lock.release()


def test_a_new_lock_file_in_the_same_folder_is_noticed(folder: Path) -> None:
    lock = DaemonLock.acquire(folder, DISPLAY)
    guard = BusDirGuard(folder, lock, lambda: None)
    (folder / "display.lock").unlink()  # e.g. the folder emptied by hand
    assert guard.check() is True
    assert lock_holder(folder, DISPLAY) == os.getpid()
    lock.release()


def test_republish_writes_every_kept_record_but_not_removed_ones(folder: Path) -> None:
    bus = Bus(folder, keep_published=True)
    bus.publish(keys.DISPLAY_STATE, {"n": 2})
    bus.publish(keys.HARDWARE_STATUS, {"ok": True})
    bus.publish(keys.DISPLAY_ON_DEMAND_CONFIG, {"plugin_id": "x"})
    bus.remove(keys.DISPLAY_ON_DEMAND_CONFIG)
    shutil.rmtree(folder)
    folder.mkdir()
    assert sorted(bus.republish()) == [keys.DISPLAY_STATE, keys.HARDWARE_STATUS]
    assert bus.read(keys.DISPLAY_STATE) == {"n": 2}
    assert bus.read(keys.DISPLAY_ON_DEMAND_CONFIG) is None


def test_a_write_blocked_by_a_folder_is_retried_once_it_is_gone(folder: Path) -> None:
    bus = Bus(folder, keep_published=True)
    bus.path(keys.DISPLAY_STATE).mkdir()
    with pytest.raises(AtomicWriteError):
        bus.publish(keys.DISPLAY_STATE, {"n": 1})
    assert bus.republish(failed_only=True) == []
    bus.path(keys.DISPLAY_STATE).rmdir()
    assert bus.republish(failed_only=True) == [keys.DISPLAY_STATE]
    assert bus.read(keys.DISPLAY_STATE) == {"n": 1}
    assert bus.republish(failed_only=True) == []


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_lock_file_that_is_not_a_regular_file_is_refused_not_followed(
        folder: Path, tmp_path: Path, kind: str) -> None:
    path = folder / "display.lock"
    target = tmp_path / "precious"
    target.write_text("keep me")
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    assert lock_holder(folder, DISPLAY) is None  # answers at once, no block
    with pytest.raises(CacheDirError, match="display.lock"):
        DaemonLock.acquire(folder, DISPLAY)
    assert target.read_text() == "keep me"
