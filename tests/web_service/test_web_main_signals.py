"""The web daemon's stop signals: the first ends the open streams and stops the server;
any more while it stops are only noted, so the shutdown is never cut short."""

from __future__ import annotations

import logging
import signal
from collections.abc import Iterator

import pytest

from tests.web_service.conftest import WebEnv
from web_service import __main__ as web_main
from web_service.streams.routes import SLOTS_KEY


@pytest.fixture
def handlers() -> Iterator[None]:
    kept = {each: signal.getsignal(each) for each in (signal.SIGTERM, signal.SIGINT)}
    yield
    for each, handler in kept.items():
        signal.signal(each, handler)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_the_first_signal_stops_and_later_ones_are_only_noted(
        web: WebEnv, handlers: None, signum: int, caplog: pytest.LogCaptureFixture) -> None:
    app = web.app
    slots = app.extensions[SLOTS_KEY]
    assert not slots.stopping.is_set()
    with pytest.raises(KeyboardInterrupt):
        web_main._interrupt(app, signum, None)
    assert slots.stopping.is_set()  # open streams end now
    for each in (signal.SIGTERM, signal.SIGINT):
        assert signal.getsignal(each) is web_main._already_stopping
    caplog.set_level(logging.INFO, logger=web_main.logger.name)
    web_main._already_stopping(signal.SIGTERM, None)  # a second one raises nothing
    assert "already stopping" in caplog.text
