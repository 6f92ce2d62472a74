"""``ledpanel skin check``: the real command in a process of its own, on the fixture skins."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SKINS = ROOT / "tests" / "skin_fixture" / "skins"


def _check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "skin", "check", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_a_good_skin_passes() -> None:
    done = _check(SKINS / "neon")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "check passed: neon: 9 renders, 0 errors, 0 warnings")


def test_false_and_slow_renders_are_warnings() -> None:
    done = _check(SKINS / "half")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "warning: recent at 64x32 returned False: the plugin's own look shows" in lines
    assert any(line.startswith("warning: upcoming at 64x32 took") and
               line.endswith("over the 150 ms render budget") for line in lines)
    assert "warning: preview.png is missing (the skin picker shows it)" in lines


def test_a_raising_skin_and_a_garbage_manifest_fail() -> None:
    flaky = _check(SKINS / "flaky")
    assert flaky.returncode == 1
    assert "error: live at 64x32 raised ValueError: flaky skin" in flaky.stdout
    assert "check failed: flaky: 0 renders, 3 errors" in flaky.stderr
    garbage = _check(SKINS / "garbage")
    assert garbage.returncode == 1
    assert "error: skin.json cannot be read" in garbage.stdout


def test_a_folder_without_a_manifest_is_named(tmp_path: Path) -> None:
    done = _check(tmp_path)
    assert done.returncode == 1
    assert "no skin.json there (not a skin folder)" in done.stderr


def test_a_hung_skin_is_stopped_at_the_deadline(tmp_path: Path) -> None:
    folder = tmp_path / "hung"
    shutil.copytree(SKINS / "neon", folder)
    manifest = json.loads((folder / "skin.json").read_text())
    (folder / "skin.json").write_text(json.dumps({**manifest, "id": "hung"}))
    (folder / "skin.py").write_text("import time\ntime.sleep(600)\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "shared.cli", "skin", "check", str(folder),
                           "--deadline", "3"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert time.monotonic() - started < 60
    assert done.returncode == 1
    assert "error: the skin did not finish within 3 s (a hung import or render)" in done.stdout


def test_a_skin_that_ends_the_process_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "quits"
    shutil.copytree(SKINS / "neon", folder)
    manifest = json.loads((folder / "skin.json").read_text())
    (folder / "skin.json").write_text(json.dumps({**manifest, "id": "quits"}))
    (folder / "skin.py").write_text("import os\nos._exit(7)\n")
    done = _check(folder)
    assert done.returncode == 1
    assert "error: the check's process ended without a report (exit status 7)" in done.stdout
