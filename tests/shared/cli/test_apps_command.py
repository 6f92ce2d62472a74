"""``ledpanel apps render``: a scripted app rendered outside the daemons, as authors check one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.daemons import ROOT

APPS = ROOT / "tests" / "shared" / "starlark" / "apps"
CLOCKISH = """
load("render.star", "render")
def main(config):
    return render.Root(delay = 100, child = render.Animation(children = [
        render.Box(width = 4, height = 4, color = config.get("color", "#f00")),
        render.Box(width = 4, height = 4, color = "#00f"),
    ]))
"""


def _render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "apps", "render", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def _app(tmp_path: Path, source: str, name: str = "app.star") -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def test_a_webp_holds_every_frame_with_config_values(tmp_path: Path) -> None:
    out = tmp_path / "out.webp"
    done = _render(str(_app(tmp_path, CLOCKISH)), "color=#0f0", "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"2 frames of 64x32, 100 ms each, written to {out}\n"
    with Image.open(out) as image:
        assert (image.n_frames, image.size) == (2, (64, 32))
        assert image.convert("RGB").getpixel((1, 1)) == (0, 255, 0)
        image.seek(1)
        assert image.convert("RGB").getpixel((1, 1)) == (0, 0, 255)


def test_a_sample_app_folder_renders_to_png_frames_at_another_size(tmp_path: Path) -> None:
    out = tmp_path / "frames"
    done = _render(str(APPS / "washer"), "--width", "128", "--height", "64",
                   "--output", f"{out}/")
    assert done.returncode == 0, done.stderr
    frames = sorted(out.iterdir())
    assert frames[0].name == "frame-0000.png" and len(frames) > 1
    with Image.open(frames[0]) as image:
        assert image.size == (128, 64)
        assert image.getbbox() is not None  # something was drawn


@pytest.mark.parametrize(("source", "message"), [
    ("def main(config)\n    return 1\n", "app.star:1"),
    ('load("weather.star", "weather")\ndef main(config):\n    return None\n',
     'app loads "weather.star", which is not available'),
    ("def main(config):\n    for x in range(1000000000):\n        pass\n",
     "longer than 0.3"),
    ("def main(config):\n    return 5\n", "not a render.Root"),
])
def test_a_bad_app_is_one_line_and_status_1(tmp_path: Path, source: str, message: str) -> None:
    done = _render(str(_app(tmp_path, source)), "--seconds", "0.3",
                   "--output", str(tmp_path / "o.gif"))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ledpanel: ")
    assert message in done.stderr
    assert not (tmp_path / "o.gif").exists()


@pytest.mark.parametrize(("args", "status", "message"), [
    (["nokey", "--output", "x.gif"], 2, "'nokey' is not KEY=VALUE"),
    (["--width", "0", "--output", "x.gif"], 2, "not between 1 and 512"),
    (["--output", "x.png"], 1, "must end in .webp or .gif, or be a folder"),
])
def test_bad_usage_is_one_line(tmp_path: Path, args: list[str], status: int,
                               message: str) -> None:
    done = _render(str(_app(tmp_path, CLOCKISH)), *args)
    assert done.returncode == status, done.stderr
    assert message in done.stderr and done.stderr.count("\n") == 1


def test_a_missing_app_is_one_line(tmp_path: Path) -> None:
    done = _render(str(tmp_path / "none.star"), "--output", str(tmp_path / "o.gif"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "none.star" in done.stderr
