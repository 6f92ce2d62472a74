"""App ids and the display modes that show them."""

from __future__ import annotations

import pytest

from shared.starlark.installed.app_ids import app_id_from, app_of, mode_of, valid_app_id


@pytest.mark.parametrize("value", ["clock", "ha_now_playing", "battlemetrics-playergraph",
                                   "2048", "a" * 64])
def test_repository_names_are_ids(value: str) -> None:
    assert valid_app_id(value)


@pytest.mark.parametrize("value", ["", "apps", "-x", "_x", "A", "a/b", "..", "a.b", "a" * 65,
                                   3, None])
def test_anything_else_is_not(value: object) -> None:
    assert not valid_app_id(value)


def test_ids_are_made_from_file_names() -> None:
    assert app_id_from("My Clock.star") == "my_clock"
    assert app_id_from("dir/Weather-2.zip") == "weather-2"
    assert app_id_from("...star") == ""


def test_a_mode_names_its_app_and_only_an_apps_mode_does() -> None:
    assert mode_of("clock") == "starlark-clock"
    assert app_of("starlark-clock") == "clock"
    assert app_of("starlark-apps") is None  # the plugin's own fallback mode
    assert app_of("clock") is None and app_of("starlark-") is None
