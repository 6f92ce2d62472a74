"""``ledpanel plugin new|check|render|test``, run as an author runs them (subprocesses)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.daemons import ROOT
from tests.shared.plugin_system.harness_plugins import FRAMED, drawing, make_plugin


def _ledpanel(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "plugin", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=240,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_a_new_plugin_passes_check_renders_and_passes_its_own_test(tmp_path: Path) -> None:
    done = _ledpanel("new", "my-clock", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    plugin = tmp_path / "my-clock"
    assert done.stdout == f"plugin my-clock created in {plugin}\n"
    assert {p.name for p in plugin.iterdir()} == {
        "manifest.json", "config_schema.json", "manager.py", "tests", "README.md"}
    check = _ledpanel("check", str(plugin))
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines()[-1] == (
        "check passed: my-clock: 8 renders, 0 errors, 0 warnings")
    out = tmp_path / "x.png"
    render = _ledpanel("render", str(plugin), "--size", "96x48", "--out", str(out))
    assert render.returncode == 0, render.stderr
    assert render.stdout == f"96x48 frame of my-clock (my-clock) written to {out}\n"
    with Image.open(out) as image:
        assert image.size == (96, 48) and image.getpixel((0, 0)) == (0, 160, 255)
    test = _ledpanel("test", str(plugin))
    assert test.returncode == 0, test.stdout + test.stderr
    assert test.stdout.splitlines()[-1] == "my-clock: tests passed"
    assert "1 passed" in test.stdout


def test_check_defaults_to_the_current_folder_and_fails_on_a_crash(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "crashy", drawing("raise RuntimeError('boom')"))
    done = _ledpanel("check", cwd=plugin)
    assert done.returncode == 1
    assert "error: crashy at 64x32: RuntimeError: boom" in done.stdout
    assert done.stderr.splitlines()[-1] == (
        "ledpanel: check failed: crashy: 8 renders, 8 errors, 1 warnings")


def test_check_renders_the_sizes_asked_for(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "sized", FRAMED)
    done = _ledpanel("check", str(plugin), "--sizes", "32x16,48x24")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "check passed: sized: 2 renders, 0 errors, 1 warnings"
    assert _ledpanel("check", str(plugin), "--sizes", "32by16").returncode == 2


def test_check_lints_manifest_and_schema_with_the_loaders_rules(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "badschema", FRAMED,
                         schema={"type": "object", "properties": {"n": {"type": "nope"}}})
    done = _ledpanel("check", str(plugin))
    assert done.returncode == 1
    assert done.stdout.startswith("error: config_schema.json: ")
    assert done.stderr == "ledpanel: check failed: badschema: 0 renders, 1 errors, 0 warnings\n"
    (plugin / "manifest.json").write_text('{"id": "badschema"}')
    done = _ledpanel("check", str(plugin))
    assert done.returncode == 1 and "error: manifest.json: " in done.stdout


def test_render_failures_are_one_line(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "crashy", drawing("raise RuntimeError('boom')"))
    done = _ledpanel("render", str(plugin), "--out", str(tmp_path / "x.png"))
    assert (done.returncode, done.stderr) == (1, "ledpanel: crashy: RuntimeError: boom\n")
    done = _ledpanel("render", str(tmp_path), "--out", str(tmp_path / "x.png"))
    assert done.returncode == 1 and "no manifest.json there" in done.stderr
    absent = make_plugin(tmp_path, "absent", FRAMED, class_name="Absent")
    done = _ledpanel("render", str(absent), "--out", str(tmp_path / "x.png"))
    assert (done.returncode, done.stderr) == (
        1, "ledpanel: absent: class 'Absent' not found in manager.py; it defines: Framed\n")
    done = _ledpanel("check", str(absent))
    assert done.stdout.splitlines()[-1] == (
        "error: absent: class 'Absent' not found in manager.py; it defines: Framed")
    assert done.stderr == "ledpanel: check failed: absent: 0 renders, 1 errors, 1 warnings\n"
    good = make_plugin(tmp_path, "good", FRAMED)
    done = _ledpanel("render", str(good), "--mode", "nope", "--out", str(tmp_path / "x.png"))
    assert (done.returncode, done.stderr) == (1, "ledpanel: good: no mode 'nope' (modes: good)\n")


@pytest.mark.parametrize("args", [["--size", "64by32"], ["--size", "0x32"],
                                  ["--config", "[1]"], ["--frames", "0"]])
def test_render_bad_usage_exits_2(tmp_path: Path, args: list[str]) -> None:
    plugin = make_plugin(tmp_path, "good", FRAMED)
    done = _ledpanel("render", str(plugin), "--out", str(tmp_path / "x.png"), *args)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_render_takes_a_config_overlay_and_reports_findings(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "good", FRAMED)
    out = tmp_path / "x.png"
    done = _ledpanel("render", str(plugin), "--config", '{"color": [1, 2, 250]}',
                     "--out", str(out))
    assert done.returncode == 0, done.stderr
    with Image.open(out) as image:
        assert image.getpixel((0, 0)) == (1, 2, 250)
    offline = make_plugin(tmp_path, "offline", FRAMED.replace(
        "def update(self):\n        pass", "def update(self):\n        raise OSError('down')"))
    done = _ledpanel("render", str(offline), "--out", str(out))
    assert (done.returncode, done.stderr) == (0, "warning: update() raised OSError: down\n")
    spill = make_plugin(tmp_path, "spill", drawing("dm.draw.point((-1, 3))"))
    done = _ledpanel("render", str(spill), "--out", str(out))
    assert done.returncode == 0
    assert done.stderr.startswith("warning: draw.point at (-1, 3, 0, 4) leaves the 64x32 panel")


def test_new_refuses_bad_names_and_existing_folders(tmp_path: Path) -> None:
    done = _ledpanel("new", "Bad Name", "--dir", str(tmp_path))
    assert done.returncode == 1 and "is not a plugin name" in done.stderr
    (tmp_path / "taken").mkdir()
    done = _ledpanel("new", "taken", "--dir", str(tmp_path))
    assert (done.returncode, done.stderr) == (1, f"ledpanel: {tmp_path / 'taken'} already exists\n")


def test_the_plugins_own_failing_test_fails_the_command(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "tested", FRAMED)
    (plugin / "tests").mkdir()
    (plugin / "tests" / "test_it.py").write_text(
        "from src.plugin_system.testing import render_plugin\n"
        "from pathlib import Path\n\n"
        "def test_red():\n"
        "    image = render_plugin(Path(__file__).parent.parent, (64, 32)).images[0]\n"
        "    assert image.getpixel((0, 0)) == (255, 0, 0)\n")
    done = _ledpanel("test", str(plugin))
    assert done.returncode == 1
    assert done.stderr == "ledpanel: tested: tests failed (pytest exit status 1)\n"
    assert "1 failed" in done.stdout
    (plugin / "tests" / "test_it.py").unlink()
    done = _ledpanel("test", str(plugin))
    assert (done.returncode, done.stderr) == (1, "ledpanel: tested: no tests found\n")
