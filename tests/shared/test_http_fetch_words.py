"""Network failures are told in a user's words, never as the library's pool-and-retry text."""

from __future__ import annotations

import socket

import pytest
import requests
import urllib3

from shared.http_fetch import FetchError, get_bytes, network_words


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_refused_connection_says_so_without_the_library_text() -> None:
    with requests.Session() as session, pytest.raises(FetchError) as failed:
        get_bytes(session, f"http://127.0.0.1:{closed_port()}/x", timeout=2, max_bytes=10)
    message = str(failed.value)
    assert message.endswith("failed: the host refused the connection")
    assert "HTTPConnectionPool" not in message and "Max retries" not in message


@pytest.mark.parametrize(("err", "words"), [
    (requests.ConnectTimeout("pool says HTTPConnectionPool(...)"), "no answer in time"),
    (urllib3.exceptions.ReadTimeoutError(None, "/x", "Read timed out."), "no answer in time"),
    (requests.ConnectionError("[Errno -2] Name or service not known"),
     "the host name could not be found (offline?)"),
    (requests.ConnectionError("[Errno 101] Network is unreachable"),
     "the network is unreachable (offline?)"),
    (requests.exceptions.ChunkedEncodingError("IncompleteRead(3 bytes read)"),
     "the connection was cut mid-way"),
    (requests.exceptions.SSLError("CERTIFICATE_VERIFY_FAILED"),
     "the secure connection failed (certificate, or the Pi's clock?)"),
    (requests.ConnectionError("something new"), "could not connect"),
    (OSError("disk on fire"), "OSError: disk on fire"),
])
def test_each_kind_of_failure_has_its_words(err: BaseException, words: str) -> None:
    assert network_words(err) == words
