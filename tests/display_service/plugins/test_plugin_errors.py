"""How plugin failures reach the journal: a traceback per hook, repeats summarised."""

from __future__ import annotations

import logging

import pytest

from display_service.plugins.errors import PluginErrors


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _fail(message: str) -> KeyError:
    try:
        raise KeyError(message)
    except KeyError as err:
        return err


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.WARNING]


def test_each_hook_of_a_plugin_logs_its_first_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    errors = PluginErrors()
    with caplog.at_level(logging.WARNING, logger="display_service.plugins"):
        errors.record("weather", "update", _fail("feed"))
        errors.record("weather", "display", _fail("x"))
        errors.record("weather", "display", _fail("y"))
        errors.record("clock", "display", _fail("x"))
    traced = [(r.getMessage(), r.exc_info is not None) for r in _warnings(caplog)]
    assert traced == [
        ("weather: update() failed: KeyError: 'feed'", True),
        ("weather: display() failed: KeyError: 'x'", True),
        ("weather: display() failed: KeyError: 'y'", False),  # new message, same hook
        ("clock: display() failed: KeyError: 'x'", True),
    ]


def test_a_repeated_failure_is_logged_once_then_summarised_once_a_minute(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    errors = PluginErrors(clock=clock)
    with caplog.at_level(logging.WARNING, logger="display_service.plugins"):
        for _ in range(61):  # once a second for a minute
            errors.record("weather", "display", _fail("x"))
            clock.now += 1
        assert [r.getMessage() for r in _warnings(caplog)] == [
            "weather: display() failed: KeyError: 'x'",
            "weather: display() failed 60 more times: KeyError: 'x'",
        ]
        caplog.clear()
        for _ in range(30):
            errors.record("weather", "display", _fail("x"))
            clock.now += 1
        assert _warnings(caplog) == []  # the next summary is due a minute after the last
        errors.record("weather", "display", _fail("other"))
    assert [r.getMessage() for r in _warnings(caplog)] == [
        "weather: display() failed 30 more times: KeyError: 'x'",
        "weather: display() failed: KeyError: 'other'",
    ]
    assert errors.count("weather") == 92  # every failure is counted, logged or not
    assert errors.snapshot()["weather"]["last_error"] == "KeyError: 'other'"


def test_repeated_messages_are_summarised_too(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    errors = PluginErrors(clock=clock)
    with caplog.at_level(logging.WARNING, logger="display_service.plugins"):
        for _ in range(5):
            errors.record_message("slow", "update", "update() still running after 30 s")
    assert [r.getMessage() for r in _warnings(caplog)] == [
        "slow: update() still running after 30 s"
    ]
