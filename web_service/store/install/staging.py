"""The store's working folders inside a plugins directory, its locks and crash recovery.

``<plugins_dir>/.store-staging/`` holds each operation's download (``<random>/``) and
the per-plugin lock files (``<id>.lock``, fcntl); ``<plugins_dir>/.store-trash/`` holds
a replaced plugin folder (``<id>-<stamp>``, restored by ``recover`` if the swap did not
finish) or a removed one (``<id>-<stamp>.removed``, always deleted: an uninstall that
stopped half way stays uninstalled) until the operation ends. Both are hidden, so
discovery skips them, and on the plugins dir's filesystem, so every move is a rename.
Both are removed when they are empty again.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from web_service.store.errors import StoreError

logger = logging.getLogger(__name__)

STAGING = ".store-staging"
TRASH = ".store-trash"
REMOVED = ".removed"  # suffix of an uninstalled folder's trash name


def staging_dir(plugins_dir: Path) -> Path:
    return Path(plugins_dir) / STAGING


def trash_dir(plugins_dir: Path) -> Path:
    return Path(plugins_dir) / TRASH


def new_work_dir(plugins_dir: Path) -> Path:
    """Return a fresh, empty folder for one operation's download."""
    work = staging_dir(plugins_dir) / secrets.token_hex(8)
    work.mkdir(parents=True)
    return work


def trash_path(plugins_dir: Path, plugin_id: str, *, removed: bool = False) -> Path:
    """Return where ``plugin_id``'s folder goes while it is replaced (or ``removed``)."""
    stamp = time.strftime("%Y%m%dT%H%M%S") + "x" + secrets.token_hex(3)
    folder = trash_dir(plugins_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{plugin_id}-{stamp}{REMOVED if removed else ''}"


@contextlib.contextmanager
def plugin_lock(plugins_dir: Path, plugin_id: str) -> Iterator[None]:
    """Hold the plugin's lock for the block; raise StoreError(BUSY) when another holds it."""
    folder = staging_dir(plugins_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{plugin_id}.lock"
    fd = -1
    for _attempt in range(5):  # a holder may remove the file between our open and lock
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            os.close(fd)
            raise StoreError(f"{plugin_id}: another install or uninstall is running",
                             "BUSY") from err
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(fd)
        fd = -1
    if fd < 0:
        raise StoreError(f"{plugin_id}: could not take the store lock", "BUSY")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)


def remove_tree(path: Path) -> None:
    """Delete a folder we own (links inside are removed, never followed)."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.exists():
        shutil.rmtree(path)


def tidy(plugins_dir: Path) -> None:
    """Remove the staging and trash folders when nothing is left in them."""
    for folder in (staging_dir(plugins_dir), trash_dir(plugins_dir)):
        with contextlib.suppress(OSError):
            folder.rmdir()


def recover(plugins_dir: Path) -> list[str]:
    """Finish what a crash interrupted; return one line per action (also logged).

    A plugin folder missing while its swap trash copy exists is restored (a crash
    between the two renames of a swap); a swap trash copy beside a present folder is
    deleted (the swap had completed); an uninstall's trash (``.removed``) is always
    deleted, never restored; leftover downloads in staging are deleted. Plugins whose
    lock is held by a running operation are left alone.
    """
    plugins_dir = Path(plugins_dir)
    done: list[str] = []
    trash = trash_dir(plugins_dir)
    entries = sorted(trash.iterdir()) if trash.is_dir() else []
    for entry in entries[:1000]:
        removed = entry.name.endswith(REMOVED)
        plugin_id = entry.name.removesuffix(REMOVED).rsplit("-", 1)[0]
        try:
            with plugin_lock(plugins_dir, plugin_id):
                target = plugins_dir / plugin_id
                if removed:
                    remove_tree(entry)
                    done.append(f"{plugin_id}: finished deleting an uninstalled folder")
                elif not os.path.lexists(target):
                    os.rename(entry, target)
                    done.append(f"{plugin_id}: restored the previous folder from the trash")
                else:
                    remove_tree(entry)
                    done.append(f"{plugin_id}: removed a leftover trash copy")
        except StoreError:
            continue
    staging = staging_dir(plugins_dir)
    leftovers = sorted(staging.iterdir()) if staging.is_dir() else []
    for entry in leftovers[:1000]:
        if entry.suffix != ".lock":
            remove_tree(entry)
            done.append(f"removed the unfinished download {entry.name}")
    tidy(plugins_dir)
    for line in done:
        logger.warning("store recovery in %s: %s", plugins_dir, line)
    return done
