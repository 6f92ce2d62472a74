"""The duration an on-demand request read from the bus may carry: within the API's range,
whatever a hand-written or hostile request file says."""

from __future__ import annotations

import pytest

from display_service.control.on_demand import _duration


@pytest.mark.parametrize("value", [None, "", 0])
def test_no_duration_means_the_entrys_own(value: object) -> None:
    assert _duration(value) == (None, None)


@pytest.mark.parametrize(("value", "seconds"), [(1, 1.0), ("30", 30.0), (604800, 604800.0)])
def test_a_duration_in_range_is_kept(value: object, seconds: float) -> None:
    assert _duration(value) == (seconds, None)


@pytest.mark.parametrize("value", [1e-7, 0.5, 604801, 9 * 10**18, 10**400, "1e400", "nan",
                                   float("nan"), float("inf"), -3, True, [], "soon"])
def test_a_duration_out_of_range_is_refused_with_a_reason(value: object) -> None:
    seconds, problem = _duration(value)
    assert seconds is None and problem and problem.startswith("duration must be")
