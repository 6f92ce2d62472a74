"""The real display daemon shows installed scripted apps and follows their config live.

Apps are installed in the instance's assets folder as the web installs them, with their
config entries; the display (a subprocess, headless 128x64 panel) must rotate the good
apps as ``starlark-<id>`` modes, publish the ``starlark_apps`` record, write each
app's preview as the panel shows it, give each bad app (syntax error, a module that does
not exist, a runaway loop, a huge image, 10,000 frames) a one-line error while the good
ones go on, and follow a new app, a disabled one and a revision bump without a restart.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.paths import Paths
from shared.starlark.installed.folder import AppsFolder, apps_root
from shared.starlark.installed.package import from_folder_files
from shared.starlark.installed.render_status import preview_path
from tests.daemons import ROOT, Instance, start_display
from tests.dev_run import wait_for

pytestmark = [pytest.mark.timeout(240), pytest.mark.daemons]

PLUGIN = ROOT / "plugin-repos" / "starlark-apps"

FILL = '''load("render.star", "render")

def main(config):
    return render.Root(child = render.Box(color = config.get("color", "#0f0")))
'''
BAD = {
    "syntax": ('def main(config)\n    return 1\n', "Parse error"),
    "missing": ('load("foo.star", "bar")\n\ndef main(config):\n    return bar\n', "foo.star"),
    "runaway": ('load("render.star", "render")\n\ndef main(config):\n    n = 0\n'
                '    for i in range(100000):\n        for j in range(100000):\n'
                '            n = j\n    return render.Root(child = render.Text(str(n)))\n',
                "longer than"),
    "huge": ('load("render.star", "render")\nload("big.png", BIG = "file")\n\n'
             'def main(config):\n'
             '    return render.Root(child = render.Image(src = BIG.readall()))\n',
             "exceeds limit"),
    "frames": ('load("render.star", "render")\n\ndef main(config):\n'
               '    return render.Root(child = render.Animation(children = [\n'
               '        render.Box(width = 1 + i % 3, height = 1) for i in range(10000)]))\n',
               "10000 frames"),
}


def make_instance(base: Path) -> tuple[Instance, AppsFolder, dict[str, Any]]:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    shutil.copytree(PLUGIN, instance.plugins_dir / "starlark-apps",
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    folder = AppsFolder(apps_root(Paths(root=base, config_dir=instance.config_dir,
                                        cache_dir=instance.cache_dir,
                                        assets_dir_override=instance.assets_dir)))
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    config["display"]["hardware"].update({"rows": 64, "cols": 64, "chain_length": 2})
    config["starlark-apps"] = {"render_seconds": 1, "render_interval": 300, "apps": {}}
    return instance, folder, config


def install(folder: AppsFolder, full: dict[str, Any], app_id: str, source: str,
            extra: dict[str, bytes] | None = None, **entry: Any) -> None:
    folder.install(from_folder_files({f"{app_id}.star": source.encode(), **(extra or {})},
                                     app_id))
    full["starlark-apps"]["apps"][app_id] = {"enabled": True, "duration": 5, "revision": 1,
                                               "config": {}, **entry}


def save(instance: Instance, config: dict[str, Any]) -> None:
    """Replace config.json in one rename, as the config save path does."""
    temp = instance.config_dir / ".config.json.tmp"
    temp.write_text(json.dumps(config, indent=2))
    os.replace(temp, instance.config_dir / "config.json")


def apps_record(instance: Instance) -> dict[str, Any]:
    return (Bus(instance.cache_dir).read(keys.STARLARK_APPS) or {}).get("apps", {})


def settled(instance: Instance, ids: list[str]) -> dict[str, Any] | None:
    """The record once every app in ``ids`` rendered or failed."""
    apps = apps_record(instance)
    done = all(a in apps and (apps[a]["rendered_at"] or apps[a]["error"]) for a in ids)
    return apps if done else None


def mode_seen(instance: Instance, mode: str, seen: set[str]) -> bool:
    state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}
    if state.get("plugin_id") == "starlark-apps":
        seen.add(state.get("mode") or "")
    return mode in seen


def test_display_rotates_good_apps_reports_bad_ones_and_follows_changes(tmp_path: Path) -> None:
    instance, folder, config = make_instance(tmp_path)
    install(folder, config, "good", FILL)
    install(folder, config, "blue", FILL, config={"color": "#00f"})
    for app_id, (source, _) in BAD.items():
        big = Image.new("1", (20000, 20000))
        extra = {"big.png": _png(big)} if app_id == "huge" else None
        install(folder, config, app_id, source, extra)
    instance.write_config(config)
    display = start_display(instance)
    try:
        apps = wait_for(lambda: settled(instance, ["good", "blue", *BAD]), "every app rendered",
                        timeout=90)
        for app_id, (_, words) in BAD.items():
            error = apps[app_id]["error"]
            assert error and words in error and "\n" not in error, (app_id, error)
            assert apps[app_id]["errors"] >= 1 and apps[app_id]["frames"] == 0
            logged = f"app {app_id}: "
            wait_for(functools.partial(_said, display.output, logged), f"{app_id} logged")
        assert apps["good"]["error"] is None and apps["good"]["frames"] == 1
        assert apps["good"]["scale"] == "magnify x2"
        seen: set[str] = set()
        wait_for(lambda: mode_seen(instance, "starlark-good", seen), "good shown")
        wait_for(lambda: mode_seen(instance, "starlark-blue", seen), "blue shown", timeout=20)
        assert not seen & {f"starlark-{a}" for a in BAD}, seen
        with Image.open(preview_path(instance.cache_dir, "good")) as preview:
            assert preview.format == "WEBP" and preview.size == (128, 64)
            assert preview.convert("RGB").getpixel((127, 63)) == (0, 255, 0)
        follow_changes(instance, folder, config, display.output)
    finally:
        assert display.stop() == 0


def follow_changes(instance: Instance, folder: AppsFolder, config: dict[str, Any],
                   output: Any) -> None:
    """A new app, a disabled one and a revision bump, all without a restart."""
    before = apps_record(instance)["good"]["rendered_at"]
    install(folder, config, "later", FILL)
    config["starlark-apps"]["apps"]["blue"]["enabled"] = False
    config["starlark-apps"]["apps"]["good"].update(revision=2, config={"color": "#f00"})
    save(instance, config)
    apps = wait_for(lambda: (a := apps_record(instance)).get("later", {}).get("rendered_at")
                    and a["good"]["rendered_at"] != before and a, "the change followed",
                    timeout=60)
    assert "blue" not in apps
    seen: set[str] = set()
    wait_for(lambda: mode_seen(instance, "starlark-later", seen), "later shown", timeout=30)
    with Image.open(preview_path(instance.cache_dir, "good")) as preview:
        assert preview.convert("RGB").getpixel((0, 0)) == (255, 0, 0)
    assert "Traceback" not in output()


def _png(image: Image.Image) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _said(output: Any, words: str) -> bool:
    return words in output()
