"""The two brightness keys are one setting."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared.config.brightness import settle_brightness
from shared.errors import ValidationError


def config(top: Any, hardware: Any) -> dict[str, Any]:
    return {"brightness": top, "display": {"hardware": {"brightness": hardware, "rows": 32}}}


@pytest.mark.parametrize(("stored", "new", "settled"), [
    (config(90, 90), config(40, 90), 40),   # the top-level key saved
    (config(90, 90), config(90, 40), 40),   # the existing system's key saved
    (config(90, 90), config(40, 40), 40),   # both, the same
])
def test_the_key_that_changed_sets_both(stored: dict[str, Any], new: dict[str, Any],
                                        settled: int) -> None:
    result = settle_brightness(stored, copy.deepcopy(new))
    assert result["brightness"] == result["display"]["hardware"]["brightness"] == settled


def test_both_changed_to_different_values_is_refused() -> None:
    with pytest.raises(ValidationError, match="one setting"):
        settle_brightness(config(90, 90), config(40, 41))


def test_an_old_disagreement_is_left_alone_until_either_is_saved() -> None:
    assert settle_brightness(config(90, 50), config(90, 50)) == config(90, 50)
    unrelated = {**config(90, 50), "timezone": "UTC"}
    assert settle_brightness(config(90, 50), copy.deepcopy(unrelated)) == unrelated


def test_a_config_without_the_hardware_section_gets_none() -> None:
    assert settle_brightness({"brightness": 90}, {"brightness": 30}) == {"brightness": 30}
