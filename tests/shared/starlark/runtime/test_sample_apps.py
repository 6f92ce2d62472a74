"""The community sample apps that need no network: how many render, and why the rest fail."""

from __future__ import annotations

from pathlib import Path

from tests.shared.starlark.runtime.sample_apps import render_sample, sample_names

# Rendered now, of 35: 30 on a quiet machine; one less is allowed for a loaded one. The
# target is 32 (90%). The misses: four apps build 30,000 to 370,000 widgets and pass the
# 1 s budget (cursive, gradientclock2, pomodoro, stadiumtracker: all render within 15 s),
# and ddayclock fetches a web page although the index says it needs no network.
RENDERED_AT_LEAST = 29


def test_the_sample_apps_render_or_name_what_is_missing(tmp_path: Path) -> None:
    outcomes = [render_sample(name, tmp_path) for name in sample_names()]
    rendered = [o for o in outcomes if not o.error]
    report = "\n".join(f"{o.name}: {o.error or f'{o.frames} frames'}" for o in outcomes)
    print(f"\n{len(rendered)} of {len(outcomes)} sample apps render\n{report}")
    assert len(outcomes) == 35
    assert all(o.frames >= 1 for o in rendered)
    for failed in (o for o in outcomes if o.error):
        assert "\n" not in failed.error and "Traceback" not in failed.error, failed
        assert failed.error.strip(), failed
    assert len(rendered) >= RENDERED_AT_LEAST, report
