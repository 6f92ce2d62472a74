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


def test_a_folder_the_panel_would_never_find_and_a_skin_object_without_its_base_fail(
        tmp_path: Path) -> None:
    misnamed = tmp_path / "My.Skin"
    shutil.copytree(SKINS / "neon", misnamed)
    done = _check(misnamed)
    assert done.returncode == 1
    assert "error: the folder's name 'My.Skin' is no skin name" in done.stdout
    broken = tmp_path / "broken" / "neon"
    shutil.copytree(SKINS / "neon", broken)
    entry = broken / "skin.py"
    entry.write_text(entry.read_text() + (
        "\n\ndef _no_base(self, manifest, options):\n    pass\n\n\n"
        "NeonSkin.__init__ = _no_base\n"))
    done = _check(broken)
    assert done.returncode == 1
    assert "__init__ does not call ScoreboardSkin's" in done.stdout


def test_a_skin_printing_bytes_that_are_no_text_still_gets_its_report(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy" / "neon"
    shutil.copytree(SKINS / "neon", noisy)
    entry = noisy / "skin.py"
    entry.write_text("import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\n')\n"
                     + entry.read_text())
    done = _check(noisy)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "check passed: neon: 9 renders" in done.stdout
