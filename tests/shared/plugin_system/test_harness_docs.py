"""The "Safety harness" examples in docs/PLUGINS.md run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from shared.cli.plugin_scaffold import write_scaffold
from shared.plugin_api import compat
from shared.plugin_system.testing.spec import load_spec
from tests.daemons import ROOT

GUIDE = (ROOT / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
SECTION = GUIDE.split("## Safety harness", 1)[1].split("\n## ", 1)[0]


def test_the_python_example_renders_a_new_plugin_at_every_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL)[0]
    write_scaffold(tmp_path, "my-clock")
    monkeypatch.chdir(tmp_path)
    compat.install()
    exec(compile(code, "PLUGINS.md", "exec"), {})  # the example asserts on its own
    assert (tmp_path / "96x48.png").is_file() and (tmp_path / "256x128.png").is_file()


def test_the_harness_json_example_is_read_as_described(tmp_path: Path) -> None:
    (text,) = re.findall(r"```json\n(.*?)```", SECTION, re.DOTALL)
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "harness.json").write_text(text)
    spec = load_spec(tmp_path)
    assert spec.sizes == [(64, 32), (128, 64)] and spec.strict_fill
    assert (spec.golden_tolerance, spec.golden_max_pixels) == (8, 4)
    assert spec.config == {"message": "Hi"} and not spec.skip_update
    assert [(v.name, v.config, v.golden_dir) for v in spec.variants] == [
        ("night", {"color": [80, 0, 0]}, "test/golden-night")]


def test_the_existing_system_example_test_runs_under_plain_pytest(tmp_path: Path) -> None:
    code = re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL)[1]
    write_scaffold(tmp_path, "my-clock")
    plugin = tmp_path / "my-clock"
    (plugin / "test").mkdir()
    (plugin / "test" / "test_screens.py").write_text(code)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    env["LEDMATRIX_TEST_SIZES"] = "64x32,96x48"

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test"],
                              cwd=plugin, env=env, capture_output=True, text=True, timeout=240)

    first = run()
    assert first.returncode == 0, first.stdout + first.stderr
    golden = plugin / "test" / "golden" / "96x48" / "my-clock.png"
    assert (plugin / "test" / "golden" / "64x32" / "my-clock.png").is_file()
    assert run().returncode == 0
    with Image.open(golden) as image:
        changed = image.copy()
    changed.putpixel((5, 5), (1, 2, 3))
    changed.save(golden)
    assert "1 failed" in run().stdout
