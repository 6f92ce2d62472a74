"""Who a request counts for (its connection's address, an IPv6 one by its /64) and over
which window."""

from __future__ import annotations

import pytest

from web_service.rate_limit.counter import WINDOW_ENV, window_seconds
from web_service.rate_limit.gate import client_key


@pytest.mark.parametrize(("remote", "key"), [
    ("192.168.1.7", "192.168.1.7"),
    ("::ffff:192.168.1.7", "192.168.1.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
    ("fe80::1%eth0", "fe80::/64"),
    ("", "unknown"),
    ("not-an-address", "not-an-address"),
])
def test_the_key_of_a_client_address(web, remote: str, key: str) -> None:
    with web.app.test_request_context("/", environ_base={"REMOTE_ADDR": remote},
                                      headers={"X-Real-IP": "10.9.9.9"}):
        assert client_key() == key


@pytest.mark.parametrize(("text", "seconds"), [
    (None, 60), ("", 60), ("abc", 60), ("4", 4), ("0", 1), ("-5", 1), ("99999", 3600),
])
def test_the_window_from_the_environment(monkeypatch: pytest.MonkeyPatch, text: str | None,
                                         seconds: int) -> None:
    if text is None:
        monkeypatch.delenv(WINDOW_ENV, raising=False)
    else:
        monkeypatch.setenv(WINDOW_ENV, text)
    assert window_seconds() == seconds
