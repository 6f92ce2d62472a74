"""An interrupted or failed uninstall ends uninstalled and leaves no working folders."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_service.store.install_support import leftovers, mono_source, push_mono, tree_hash
from tests.web_service.store.repo_host import RepoHost
from web_service.store.install import staging
from web_service.store.install.folders import install_plugin, recover, uninstall_plugin


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        push_mono(running, "clock")
        yield running


@pytest.fixture
def plugins_dir(tmp_path: Path, host: RepoHost) -> Path:
    folder = tmp_path / "plugin-repos"
    install_plugin(mono_source(host, "clock"), folder, api_url=host.api_url)
    return folder


def test_uninstall_interrupted_while_deleting_stays_uninstalled(plugins_dir: Path) -> None:
    # a crash during the delete: the folder is in the trash, partly deleted
    trash = staging.trash_path(plugins_dir, "clock", removed=True)
    os.rename(plugins_dir / "clock", trash)
    (trash / "manager.py").unlink()
    done = recover(plugins_dir)
    assert not os.path.lexists(plugins_dir / "clock"), "an uninstalled plugin stays gone"
    assert leftovers(plugins_dir) == []
    assert done == ["clock: finished deleting an uninstalled folder"]


def test_swap_trash_is_still_restored_beside_an_uninstall_trash(plugins_dir: Path) -> None:
    before = tree_hash(plugins_dir / "clock")
    os.rename(plugins_dir / "clock", staging.trash_path(plugins_dir, "clock"))
    removed = staging.trash_path(plugins_dir, "clock", removed=True)
    removed.mkdir()
    (removed / "manifest.json").write_text("{}")
    recover(plugins_dir)
    assert tree_hash(plugins_dir / "clock") == before
    assert leftovers(plugins_dir) == []


def test_failed_uninstall_leaves_the_plugin_and_no_working_folders(plugins_dir: Path) -> None:
    before = tree_hash(plugins_dir / "clock")
    (plugins_dir / ".store-trash").write_text("in the way")  # the trash cannot be made
    with pytest.raises(OSError):
        uninstall_plugin("clock", [plugins_dir])
    assert tree_hash(plugins_dir / "clock") == before
    assert not (plugins_dir / ".store-staging").exists()


def test_uninstall_then_recover_finds_nothing_to_do(plugins_dir: Path) -> None:
    uninstall_plugin("clock", [plugins_dir])
    assert recover(plugins_dir) == [] and leftovers(plugins_dir) == []
