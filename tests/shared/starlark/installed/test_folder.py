"""The installed apps' folder: whole installs, replacing, removing, and garbage read back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from shared.paths import resolve_paths
from shared.starlark.installed import folder as folder_module
from shared.starlark.installed.folder import INFO_FILE, AppsFolder, apps_root
from shared.starlark.installed.package import Package, from_star

APP = (b'load("render.star", "render")\ndef main(config):\n'
       b"    return render.Root(child = render.Box())\n")


def _package(app_id: str = "clock", extra: dict[str, bytes] | None = None) -> Package:
    made = from_star(APP, f"{app_id}.star")
    made.files.update(extra or {})
    made.manifest = {"name": "The Clock", "summary": "tells time", "supports2x": True}
    return made


def test_apps_live_under_the_plugins_assets(tmp_path: Path) -> None:
    paths = resolve_paths(env={"LEDPANEL_ASSETS_DIR": str(tmp_path)})
    assert apps_root(paths) == tmp_path / "plugins" / "starlark-apps" / "apps"


def test_an_install_is_listed_with_what_its_manifest_said(tmp_path: Path) -> None:
    apps = AppsFolder(tmp_path / "apps")
    assert apps.apps() == [] and apps.get("clock") is None
    got = apps.install(_package(extra={"images/a.png": b"png"}), source="repository")
    assert (tmp_path / "apps" / "clock" / "images" / "a.png").read_bytes() == b"png"
    listed = apps.get("clock")
    assert listed == got
    assert (listed.name, listed.summary, listed.source, listed.supports2x) == (
        "The Clock", "tells time", "repository", True)
    assert apps.main_path(listed).read_bytes() == APP
    assert sorted(os.listdir(tmp_path / "apps")) == ["clock"]  # no staging left behind


def test_a_reinstall_replaces_every_file_and_remove_takes_it_away(tmp_path: Path) -> None:
    apps = AppsFolder(tmp_path / "apps")
    apps.install(_package(extra={"old.png": b"1"}))
    apps.install(_package(extra={"new.png": b"2"}))
    assert sorted(p.name for p in (tmp_path / "apps" / "clock").iterdir()) == [
        INFO_FILE, "clock.star", "new.png"]
    assert apps.remove("clock") is True
    assert apps.remove("clock") is False
    assert os.listdir(tmp_path / "apps") == []


def test_a_failed_install_leaves_the_installed_app_as_it_was(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    apps = AppsFolder(tmp_path / "apps")
    apps.install(_package(extra={"old.png": b"1"}))

    def failing(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(folder_module, "atomic_write_json", failing)
    with pytest.raises(OSError, match="disk full"):
        apps.install(_package(extra={"new.png": b"2"}))
    assert (tmp_path / "apps" / "clock" / "old.png").read_bytes() == b"1"
    assert sorted(os.listdir(tmp_path / "apps")) == ["clock"]


def test_leftovers_of_a_cut_install_go_with_the_next_one(tmp_path: Path) -> None:
    root = tmp_path / "apps"
    (root / ".old-abc").mkdir(parents=True)
    stale = root / ".staging-abc"
    stale.mkdir()
    os.utime(stale, (1, 1))
    AppsFolder(root).install(_package())
    assert sorted(os.listdir(root)) == ["clock"]


def test_garbage_in_the_folder_is_listed_with_its_problem_or_ignored(tmp_path: Path) -> None:
    root = tmp_path / "apps"
    apps = AppsFolder(root)
    apps.install(_package("good"))
    apps.install(_package("broken"))
    (root / "broken" / INFO_FILE).write_bytes(b"\x00garbage")
    apps.install(_package("moved"))
    (root / "moved" / INFO_FILE).write_text(json.dumps({"main": "../../etc/passwd"}))
    (root / "Not An Id").mkdir()
    (root / "afile").write_text("x")
    os.symlink(root / "good", root / "linked")
    listed = {app.id: app for app in apps.apps()}
    assert sorted(listed) == ["broken", "good", "moved"]
    assert listed["good"].problem is None
    assert listed["broken"].problem is None and listed["broken"].main == "broken.star"
    assert listed["moved"].problem is not None and "missing" in listed["moved"].problem
    with pytest.raises(ValueError):
        apps.folder("../x")
