"""Apps rendered in the capped worker: same frames, and a bad app ends only the worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.starlark.isolated import AppRenderer
from shared.starlark.runtime import AppError, NothingToShow, load_app, run_app

APPS = Path(__file__).resolve().parent / "apps"
SMALL = """
load("render.star", "render")
def main(config):
    print("a line for the log, not for the answer")
    return render.Root(child = render.Box(width = 2, height = 2, color = config.get("c", "#f00")))
"""


@pytest.fixture
def renderer() -> Iterator[AppRenderer]:
    worker = AppRenderer(memory_mb=96)
    yield worker
    worker.close()


def _app(tmp_path: Path, body: str, name: str = "app.star") -> str:
    (tmp_path / name).write_text(body)
    return str(tmp_path / name)


def test_the_worker_draws_what_the_runtime_draws(renderer: AppRenderer) -> None:
    expected = run_app(load_app(APPS / "washer"), {})
    got = renderer.render(str(APPS / "washer"), {})
    assert got.delay_ms == expected.delay_ms
    assert [i.tobytes() for i in got.images] == [i.tobytes() for i in expected.images]


def test_an_app_asking_for_gigabytes_ends_the_worker_not_the_caller(
        renderer: AppRenderer, tmp_path: Path) -> None:
    bomb = _app(tmp_path, 'def main(config):\n    return "a" * 2000000000\n', "bomb.star")
    with pytest.raises(AppError, match="more than the 96 MB of memory allowed"):
        renderer.render(bomb, {})
    small = renderer.render(_app(tmp_path, SMALL), {"c": "#00f"}, width=8, height=4)
    assert small.images[0].getpixel((1, 1)) == (0, 0, 255)
    assert small.images[0].size == (8, 4)


def test_one_step_longer_than_the_budget_is_stopped(renderer: AppRenderer,
                                                     tmp_path: Path) -> None:
    stuck = _app(tmp_path, 'load("re.star", "re")\n'
                           'def main(config):\n'
                           '    return re.match("(a+)+$", "a" * 40 + "b")\n', "stuck.star")
    with pytest.raises(AppError, match=r"longer than 0.3 s to render \(stopped\)"):
        renderer.render(stuck, {}, seconds=0.3)
    assert renderer.render(_app(tmp_path, SMALL), {}).images[0].getpixel((0, 0)) == (255, 0, 0)


def test_an_app_error_comes_back_as_its_line(renderer: AppRenderer, tmp_path: Path) -> None:
    broken = _app(tmp_path, "def main(config)\n", "broken.star")
    with pytest.raises(AppError, match="^broken.star:1"):
        renderer.render(broken, {})


def test_an_apps_cache_lasts_between_its_renders_in_the_worker(renderer: AppRenderer,
                                                               tmp_path: Path) -> None:
    counter = _app(tmp_path, """
load("render.star", "render")
load("cache.star", "cache")
def main(config):
    seen = int(cache.get("seen") or "0") + 1
    cache.set("seen", str(seen), ttl_seconds = 600)
    return render.Root(child = render.Box(width = seen, height = 1, color = "#fff"))
""", "counter.star")
    widths = [renderer.render(counter, {}).images[0].getbbox() for _ in range(3)]
    assert widths == [(0, 0, 1, 1), (0, 0, 2, 1), (0, 0, 3, 1)]


def test_the_worker_answers_an_apps_schema_and_none_without_one(renderer: AppRenderer,
                                                                  tmp_path: Path) -> None:
    schema = renderer.schema(str(APPS / "amazing"))
    assert schema is not None and [f["id"] for f in schema["schema"]]
    assert renderer.schema(str(APPS / "washer")) is None
    bad = _app(tmp_path, "def get_schema(:\n")
    with pytest.raises(AppError, match="app.star"):
        renderer.schema(bad)
    assert renderer.render(str(APPS / "washer"), {}).images  # the worker carries on


def test_an_app_skipping_its_turn_is_told_apart_from_a_failure(renderer: AppRenderer,
                                                               tmp_path: Path) -> None:
    skipping = _app(tmp_path, "def main(config):\n    return []\n")
    with pytest.raises(NothingToShow, match="nothing to show"):
        renderer.render(skipping, {})
    failing = _app(tmp_path, "def main(config):\n    return 1 // 0\n", "bad.star")
    with pytest.raises(AppError) as failed:
        renderer.render(failing, {})
    assert not isinstance(failed.value, NothingToShow)
