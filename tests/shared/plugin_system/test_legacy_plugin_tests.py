"""A plugin's tests written for the existing system's harness run here unmodified,
under ``ledpanel plugin test DIR`` and under plain pytest (real subprocesses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from shared.plugin_api import compat
from shared.plugin_system.testing.harness import render_plugin_matrix, write_goldens
from tests.daemons import ROOT
from tests.shared.plugin_system.legacy_style_plugin import write_legacy_plugin

SIZES = [(64, 32), (128, 64)]


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    """The ``hello`` plugin with its goldens written by ``write_goldens``."""
    compat.install()
    directory = write_legacy_plugin(tmp_path)
    for overlay, golden in (({}, "golden"), ({"background": [60, 0, 0]}, "golden-night")):
        results = render_plugin_matrix("hello", directory, {"message": "Hi", **overlay},
                                       sizes=SIZES)
        assert write_goldens(results, directory / "test" / golden) == 2
    return directory


def _ledpanel_test(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "plugin", "test", str(directory)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def _plain_pytest(directory: Path) -> subprocess.CompletedProcess[str]:
    """pytest as an author runs it in the plugin's folder: no PYTHONPATH, no options."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "LEDMATRIX_TEST_SIZES")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test"],
                          cwd=directory, capture_output=True, text=True, timeout=240, env=env)


def test_ledpanel_plugin_test_runs_the_existing_style_tests(plugin: Path) -> None:
    done = _ledpanel_test(plugin)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout
    assert done.stdout.splitlines()[-1] == "hello: tests passed"


def test_plain_pytest_runs_the_existing_style_tests(plugin: Path) -> None:
    done = _plain_pytest(plugin)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout


def test_a_golden_that_differs_fails_both_runs(plugin: Path) -> None:
    path = plugin / "test" / "golden-night" / "128x64" / "hello.png"
    with Image.open(path) as image:
        changed = image.copy()
    changed.putpixel((100, 50), (0, 255, 0))
    changed.save(path)
    done = _ledpanel_test(plugin)
    assert done.returncode == 1 and "1 failed, 4 passed" in done.stdout, done.stdout
    assert "1 failed, 4 passed" in _plain_pytest(plugin).stdout


def test_a_plugin_that_no_longer_draws_its_greeting_fails_its_unit_test(plugin: Path) -> None:
    manager = plugin / "manager.py"
    manager.write_text(manager.read_text().replace("dm.draw_text(self.message", "dm.draw_text('-'"))
    done = _plain_pytest(plugin)
    assert done.returncode == 1
    assert "Text 'Hi' not found in drawn texts: ['-']" in done.stdout


def test_the_harness_json_mock_data_reaches_the_plugins_cache(plugin: Path) -> None:
    (plugin / "test" / "fixtures" / "mock.json").write_text('{"hello_greeting": "Yo"}')
    done = _plain_pytest(plugin)
    assert "test_plugin_check.py F" in done.stdout and "1 failed, 4 passed" in done.stdout
