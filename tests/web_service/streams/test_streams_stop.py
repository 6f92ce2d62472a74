"""A stopping web daemon ends its open streams with ``event: end`` (``reason: stopping``)
instead of leaving the server's shutdown to wait them out."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web


@pytest.mark.parametrize("path", ["/stream/stats", "/stream/preview", "/stream/logs"])
def test_stopping_the_web_ends_each_open_stream_with_a_stopping_event(
        tmp_path: Path, path: str) -> None:
    web, url = start_web(Instance(tmp_path))
    try:
        answer = requests.get(url + path, stream=True, timeout=10)
        assert answer.status_code == 200
        lines = answer.iter_lines(decode_unicode=True)
        assert next(lines).startswith("retry:")  # the stream is open
        web.process.send_signal(signal.SIGTERM)
        # A second signal while it stops changes nothing. (Sent at once: once main()
        # has returned, the interpreter puts the default handlers back as it exits.)
        web.process.send_signal(signal.SIGTERM)
        rest = list(lines)  # ends when the server closes the stream
        code = web.process.wait(30)
    finally:
        web.stop()
    assert code == 0, web.output()[-2000:]
    assert "Traceback" not in web.output()
    ends = [i for i, line in enumerate(rest) if line == "event: end"]
    assert ends, rest[-5:]
    data = rest[ends[-1] + 1]
    assert json.loads(data.removeprefix("data: ")) == {"reason": "stopping"}
    assert "ledpanel-web stopped" in web.output()
