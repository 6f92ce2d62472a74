"""render.star from apps: widgets built in Starlark, painted by the render package."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

from shared.starlark.runtime import load_app, run_app
from tests.shared.starlark.runtime.app_builder import write_app

RED, BLUE, BLACK = (255, 0, 0), (0, 0, 255), (0, 0, 0)


def _png(color: tuple[int, int, int], size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()


def test_a_box_fills_its_pixels_and_nothing_else(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              'def main(config):\n'
              '    return render.Root(child = render.Padding(pad = (2, 1, 0, 0),\n'
              '        child = render.Box(width = 3, height = 2, color = "#f00")))\n')
    frames = run_app(load_app(write_app(tmp_path, source)), {})
    image = frames.images[0]
    assert image.size == (64, 32)
    assert [image.getpixel((x, 1)) for x in range(1, 6)] == [BLACK, RED, RED, RED, BLACK]
    assert image.getpixel((2, 2)) == RED and image.getpixel((2, 3)) == BLACK


def test_canvas_answers_the_requested_size(tmp_path: Path) -> None:
    source = ('load("render.star", "render", "canvas")\n'
              'def main(config):\n'
              '    w, h = canvas.width(), canvas.height()\n'
              '    return render.Root(child = render.Box(width = w // 2, height = h,\n'
              '                                          color = "#00f"))\n')
    frames = run_app(load_app(write_app(tmp_path, source)), {}, width=128, height=64)
    image = frames.images[0]
    assert image.size == (128, 64)
    assert image.getpixel((63, 63)) == BLUE and image.getpixel((64, 0)) == BLACK


def test_an_image_asset_loaded_as_a_file_is_drawn(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\nload("icon.png", ICON = "file")\n'
              'def main(config):\n'
              '    return render.Root(child = render.Image(src = ICON.readall()))\n')
    folder = write_app(tmp_path, source, {"icon.png": _png(RED, (4, 3))})
    image = run_app(load_app(folder), {}).images[0]
    assert image.getpixel((3, 2)) == RED and image.getpixel((4, 2)) == BLACK
    assert image.getpixel((0, 3)) == BLACK


def test_an_image_from_base64_is_drawn(tmp_path: Path) -> None:
    coded = base64.b64encode(_png(BLUE, (2, 2))).decode()
    source = ('load("render.star", "render")\nload("encoding/base64.star", "base64")\n'
              f'ICON = base64.decode("{coded}")\n'
              'def main(config):\n'
              '    return render.Root(child = render.Image(ICON))\n')
    image = run_app(load_app(write_app(tmp_path, source)), {}).images[0]
    assert image.getpixel((1, 1)) == BLUE and image.getpixel((2, 2)) == BLACK


def test_animation_frames_and_root_delay(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              'def main(config):\n'
              '    return render.Root(delay = 100, child = render.Animation(children = [\n'
              '        render.Box(width = 1, height = 1, color = c)\n'
              '        for c in ["#f00", "#00f", "#f00"]]))\n')
    frames = run_app(load_app(write_app(tmp_path, source)), {})
    assert frames.delay_ms == 100
    assert [f.getpixel((0, 0)) for f in frames.images] == [RED, BLUE, RED]


def test_render_fonts_lists_the_font_names(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              'def main(config):\n'
              '    return render.Root(child = render.Text("x" if "tb-8" in render.fonts\n'
              '                                           and "6x13" in render.fonts else ""))\n')
    image = run_app(load_app(write_app(tmp_path, source)), {}).images[0]
    assert image.getbbox() is not None


def test_none_in_a_children_list_is_skipped(tmp_path: Path) -> None:
    source = ('load("render.star", "render")\n'
              'def main(config):\n'
              '    return render.Root(child = render.Stack(children = [\n'
              '        None, render.Box(width = 1, height = 1, color = "#f00"), None]))\n')
    image = run_app(load_app(write_app(tmp_path, source)), {}).images[0]
    assert image.getpixel((0, 0)) == RED
