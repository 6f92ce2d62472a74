"""Scoreboard skins: discovery, loading, the fallback per mode, disabling, the budget.

The fixture plugin ``tests/skin_fixture/plugins/skin-scoreboard`` is loaded by the
device's plugin manager (the harness's ``render_plugin``) and draws a red bar on top in
its built-in look; the fixture skins draw a green (neon) or blue (half) bar.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from shared.plugin_api.skins.api import ScoreboardSkin, build_context
from shared.plugin_api.skins.loading import SkinLoadError, load_skin
from shared.plugin_api.skins.manifest import SKINS_DIR_ENV, discover_skins
from shared.plugin_api.skins.runner import SkinRunner
from shared.plugin_system.testing.render import render_plugin

FIXTURE = Path(__file__).resolve().parents[2] / "skin_fixture"
SKINS = FIXTURE / "skins"
PLUGIN = FIXTURE / "plugins" / "skin-scoreboard"
RED, GREEN, BLUE = (200, 0, 0), (0, 200, 0), (0, 0, 200)
MODES = {m: f"skin_scoreboard_{m}" for m in ("live", "recent", "upcoming")}


@pytest.fixture(autouse=True)
def fixture_skins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SKINS_DIR_ENV, str(SKINS))


def _bar(skin: str | None, mode: str, frames: int = 1, **options: object) -> list[tuple]:
    overlay = {"skin": skin, "skin_options": options}
    result = render_plugin(PLUGIN, (64, 32), overlay, mode=MODES[mode], frames=frames,
                           run_update=False)
    assert result.error is None, result.error
    return [image.convert("RGB").getpixel((10, 1)) for image in result.images]


def test_discovery_reads_every_skin_and_names_a_garbage_manifest() -> None:
    found = discover_skins([SKINS])
    assert sorted(found) == ["flaky", "garbage", "half", "neon"]
    assert [n for n, info in found.items() if info.ok] == ["flaky", "half", "neon"]
    assert "skin.json cannot be read" in found["garbage"].problems[0]
    assert found["neon"].as_dict()["modes"] == ["live", "recent", "upcoming"]
    assert found["neon"].has_preview


@pytest.mark.parametrize(("manifest", "problem"), [
    ([1, 2], "must hold a JSON object"),
    ({"name": "X", "version": "1", "skin_api_version": "2.0.0", "class_name": "S",
      "modes": ["live"]}, "does not match"),
    ({"name": "X", "version": "1", "skin_api_version": "1.0.0", "class_name": "S;",
      "modes": ["live"]}, "Python class name"),
    ({"name": "X", "version": "1", "skin_api_version": "1.0.0", "class_name": "S",
      "modes": ["sideways"]}, "'modes' must list"),
    ({"id": "other", "name": "X", "version": "1", "skin_api_version": "1.0.0",
      "class_name": "S", "modes": ["live"]}, "not the folder's name"),
])
def test_a_bad_manifest_is_a_problem_never_an_error(tmp_path: Path, manifest: object,
                                                     problem: str) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "skin.json").write_text(json.dumps(manifest))
    (folder / "skin.py").write_text("")
    (tmp_path / "Not A Name").mkdir()
    found = discover_skins([tmp_path])
    assert list(found) == ["bad"]
    assert any(problem in p for p in found["bad"].problems), found["bad"].problems
    with pytest.raises(SkinLoadError, match=problem.strip("'")):
        load_skin("bad", dirs=[tmp_path])


def test_the_plugin_filter_follows_targets() -> None:
    found = discover_skins([SKINS])
    assert found["neon"].supports_plugin("skin-scoreboard")
    assert found["half"].supports_plugin("skin-scoreboard")  # sport "scoreboard" is a word
    assert not found["flaky"].supports_plugin("skin-scoreboard")
    assert found["flaky"].supports_plugin("other-board")


def test_load_skin_makes_the_skin_class_through_src_skin_system() -> None:
    skin = load_skin("neon", {"x": 1})
    assert isinstance(skin, ScoreboardSkin) and type(skin).__name__ == "NeonSkin"
    assert skin.options == {"x": 1}
    with pytest.raises(SkinLoadError, match="not installed"):
        load_skin("missing")


@pytest.mark.parametrize("mode", ["live", "recent", "upcoming"])
def test_a_good_skin_draws_every_mode_and_no_skin_is_the_built_in_look(mode: str) -> None:
    assert _bar("neon", mode) == [GREEN]
    assert _bar(None, mode) == [RED]


def test_the_fallback_is_per_mode(caplog: pytest.LogCaptureFixture) -> None:
    assert _bar("half", "live") == [BLUE]
    assert _bar("half", "recent") == [RED]  # the skin returned False
    assert _bar("flaky", "recent") == [RED]  # the skin has no renderer for it
    assert "disabled" not in caplog.text


def test_three_faults_in_a_row_disable_the_skin_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert _bar("flaky", "live", frames=5) == [RED] * 5
    assert caplog.text.count("raised ValueError: flaky skin in live") == 3
    assert caplog.text.count("disabled for this session") == 1
    assert "3 faults in a row, the last: raised ValueError: flaky skin" in caplog.text


def test_a_success_between_raises_resets_the_count() -> None:
    runner = SkinRunner("skin-scoreboard", "half", {"raise_live": True})
    ctx = build_context(None, {}, size=(64, 32))
    for _ in range(2):
        assert runner.render("live", ctx, {}) is False
    runner.options["raise_live"] = False
    runner._skin.options["raise_live"] = False  # type: ignore[union-attr]
    assert runner.render("live", ctx, {}) is True
    assert runner.faults_in_a_row == 0 and runner.active


def test_a_slow_render_logs_the_budget_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert _bar("half", "upcoming", upcoming_seconds=0.2) == [BLUE]
    assert "over the 150 ms render budget" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert _bar("half", "upcoming", upcoming_seconds=0.0) == [BLUE]
    assert "render budget" not in caplog.text


def test_a_skin_that_cannot_load_falls_back_and_says_so_once(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert _bar("garbage", "live", frames=3) == [RED] * 3
        assert _bar("nowhere", "live") == [RED]
    assert caplog.text.count("skin 'garbage' of plugin skin-scoreboard disabled") == 1
    assert "skin 'nowhere' is not installed" in caplog.text


def test_a_mode_the_manifest_does_not_declare_is_never_rendered(tmp_path: Path) -> None:
    folder = tmp_path / "live-only"
    folder.mkdir()
    (folder / "skin.json").write_text(json.dumps({
        "name": "Live only", "version": "1", "skin_api_version": "1.0.0",
        "class_name": "LiveOnly", "modes": ["live"]}))
    (folder / "skin.py").write_text(
        "from src.skin_system import ScoreboardSkin\n\n"
        "class LiveOnly(ScoreboardSkin):\n"
        "    def render_live(self, ctx, game):\n        return True\n\n"
        "    def render_recent(self, ctx, game):\n        return True\n")
    runner = SkinRunner("skin-scoreboard", "live-only",
                        loader=lambda name, options: load_skin(name, options, dirs=[tmp_path]))
    ctx = build_context(None, {}, size=(64, 32))
    assert runner.render("live", ctx, {}) is True
    assert runner.render("recent", ctx, {}) is False


def test_discovery_reads_a_bounded_number_of_folders(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from shared.plugin_api.skins import manifest

    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
    monkeypatch.setattr(manifest, "MAX_SKINS", 2)
    assert list(discover_skins([tmp_path, SKINS])) == ["a", "b", "flaky", "garbage"]


def _skin_in(tmp_path: Path, name: str, code: str) -> SkinRunner:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "skin.json").write_text(json.dumps({
        "name": name, "version": "1", "skin_api_version": "1.0.0", "class_name": "Skin",
        "modes": ["live"]}))
    (folder / "skin.py").write_text(code)
    return SkinRunner("skin-scoreboard", name,
                      loader=lambda name, options: load_skin(name, options, dirs=[tmp_path]))


BROKEN_OBJECT = ("from src.skin_system import ScoreboardSkin\n\n"
                 "class Skin(ScoreboardSkin):\n"
                 "    def __init__(self, manifest, options):\n        pass  # no super()\n\n"
                 "    def render_live(self, ctx, game):\n        return True\n")
EXITS = ("import sys\nfrom src.skin_system import ScoreboardSkin\n\n"
         "class Skin(ScoreboardSkin):\n"
         "    def render_live(self, ctx, game):\n        sys.exit(3)\n")


@pytest.mark.parametrize("code", [BROKEN_OBJECT, EXITS], ids=["no-super-init", "sys-exit"])
def test_whatever_a_skin_raises_stays_in_the_runner(tmp_path: Path, code: str,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    runner = _skin_in(tmp_path, "broken", code)
    ctx = build_context(None, {}, size=(64, 32))
    with caplog.at_level(logging.WARNING):
        assert [runner.render("live", ctx, {}) for _ in range(4)] == [False] * 4
    assert not runner.active and "3 faults in a row" in (runner.disabled_reason or "")
    assert caplog.text.count("disabled for this session") == 1


def test_a_skin_that_exits_while_importing_is_disabled_at_once(tmp_path: Path) -> None:
    runner = _skin_in(tmp_path, "exits-early", "import sys\nsys.exit('no')\n")
    ctx = build_context(None, {}, size=(64, 32))
    assert runner.render("live", ctx, {}) is False
    assert not runner.active and "SystemExit" in (runner.disabled_reason or "")


def test_a_skin_with_dataclasses_and_postponed_annotations_loads(tmp_path: Path) -> None:
    runner = _skin_in(tmp_path, "typed", (
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "from src.skin_system import ScoreboardSkin\n\n"
        "@dataclass\nclass Score:\n    home: int\n    away: int\n\n"
        "class Skin(ScoreboardSkin):\n"
        "    def render_live(self, ctx, game):\n        return Score(1, 2).home == 1\n"))
    assert runner.render("live", build_context(None, {}, size=(64, 32)), {}) is True
    assert runner.active


def test_skins_whose_names_differ_only_by_dash_and_underscore_are_two_modules(
        tmp_path: Path) -> None:
    ctx = build_context(None, {}, size=(64, 32))
    for name, drawn in (("a-b", True), ("a_b", False)):
        runner = _skin_in(tmp_path, name, "from src.skin_system import ScoreboardSkin\n\n"
                          "class Skin(ScoreboardSkin):\n"
                          f"    def render_live(self, ctx, game):\n        return {drawn}\n")
        assert runner.render("live", ctx, {}) is drawn


def test_a_skin_too_slow_three_times_in_a_row_gives_way_to_the_built_in_look(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert _bar("half", "upcoming", frames=4, upcoming_seconds=0.35) == [BLUE] * 3 + [RED]
    assert caplog.text.count("over 300 ms in upcoming") == 3
    assert "disabled for this session: 3 faults in a row, the last: took" in caplog.text
