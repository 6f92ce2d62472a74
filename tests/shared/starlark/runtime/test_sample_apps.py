"""The community sample apps that need no network: how many render, and why the rest fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageSequence

from shared.starlark.runtime import Limits, app_schema, load_app, run_app
from tests.shared.starlark.runtime.sample_apps import APPS, render_sample, sample_names

# Whether each app renders, not how fast (bench/ and test_limits.py hold speed and the
# budget to account): a budget far above the default keeps the verdict steady on a
# machine busy with other work.
SAMPLE_LIMITS = Limits(seconds=30.0)
# Apps that build 100,000 to 370,000 widgets: about 15 s each on a quiet machine, past
# even that budget; either outcome is accepted, at a short budget so they cost little.
HEAVY = {"cursive", "stadiumtracker"}
# Fetches a web page although the index says it needs no network.
NEEDS_NETWORK = {"ddayclock"}


def test_nine_in_ten_of_the_sample_apps_are_expected_to_render() -> None:
    names = sample_names()
    assert len(names) == 35
    expected = [name for name in names if name not in HEAVY | NEEDS_NETWORK]
    assert len(expected) / len(names) >= 0.9


@pytest.mark.parametrize("name", sample_names())
def test_a_sample_app_renders_or_names_what_is_missing(tmp_path: Path, name: str) -> None:
    limits = Limits(seconds=2.0) if name in HEAVY else SAMPLE_LIMITS
    outcome = render_sample(name, tmp_path, limits)
    if name in NEEDS_NETWORK:
        assert outcome.error.startswith(f"{name}.star:") and "http.get https://" in outcome.error
    elif name in HEAVY and outcome.error:
        assert outcome.error == "app took longer than 2 s to render"
    else:
        assert outcome.error == "" and outcome.frames >= 1
    assert "\n" not in outcome.error and "Traceback" not in outcome.error


def test_every_sample_apps_schema_reads_as_json() -> None:
    schemas = {name: app_schema(load_app(APPS / name)) for name in sample_names()}
    assert sum(schema is not None for schema in schemas.values()) == 24
    for name, schema in schemas.items():
        if schema is not None:
            assert schema["version"] == "1", name
            assert all({"type", "id"} <= set(field) for field in schema["schema"]), name
            json.dumps(schema)


# Apps whose picture depends on nothing but their defaults (no clock, no dice): the
# store's preview of each, drawn by pixlet, is the expected result, frame for frame.
PIXLET_PREVIEWS = ["garageclosed", "garageopen", "jimothy", "trashrecbinsout", "washer"]


@pytest.mark.parametrize("name", PIXLET_PREVIEWS)
def test_apps_draw_exactly_what_pixlet_drew(tmp_path: Path, name: str) -> None:
    with Image.open(APPS / name / f"{name}.webp") as preview:
        expected = [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(preview)]
    app = load_app(APPS / name)
    schema = app_schema(app) or {"schema": []}
    config = {field["id"]: field["default"] for field in schema["schema"] if "default" in field}
    frames = run_app(app, config, limits=SAMPLE_LIMITS)
    assert [image.tobytes() for image in frames.images] == expected
