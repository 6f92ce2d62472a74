"""cache.star (per app, TTL, bounded) and http.star through an injected fetcher."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.starlark.runtime import AppCache, AppError, PublicFetcher
from shared.starlark.runtime.modules.http_module import ALLOW_ENV
from tests.shared.starlark.runtime.app_builder import main_value

CACHE_APP = ('load("cache.star", "cache")\n'
             'def main(config):\n'
             '    before = cache.get("k")\n'
             '    cache.set("k", config.get("v", "x"), ttl_seconds = 30)\n'
             '    return [before, cache.get("k")]\n')


class Clock:
    """A hand-moved monotonic clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_cache_keeps_values_between_renders_until_the_ttl(tmp_path: Path) -> None:
    clock = Clock()
    store = AppCache(clock=clock)
    assert main_value(tmp_path, CACHE_APP, {"v": "one"}, cache=store) == [None, "one"]
    clock.now += 29
    assert main_value(tmp_path, CACHE_APP, {"v": "two"}, cache=store) == ["one", "two"]
    clock.now += 31
    assert main_value(tmp_path, CACHE_APP, {"v": "three"}, cache=store) == [None, "three"]


def test_the_cache_drops_the_oldest_entries_past_its_bounds() -> None:
    store = AppCache(max_entries=2, max_bytes=94)
    store.set("a", "1")
    store.set("b", "2")
    store.set("c", "3")
    assert (store.get("a"), store.get("b"), store.get("c")) == (None, "2", "3")
    store.set("big", "x" * 90)
    assert (len(store), store.get("big")) == (1, "x" * 90)
    with pytest.raises(ValueError, match="over the cache"):
        store.set("huge", "x" * 200)


class RecordingFetcher:
    """A Fetcher that answers from a table and records what was asked."""

    def __init__(self, answers: dict[str, tuple[int, dict[str, str], bytes]]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, str, dict[str, str], bytes | None]] = []

    def __call__(self, method: str, url: str, headers: dict[str, str], body: bytes | None,
                 timeout: float) -> tuple[int, dict[str, str], bytes]:
        self.calls.append((method, url, headers, body))
        return self.answers[url]


def test_http_get_with_params_headers_and_json(tmp_path: Path) -> None:
    fetch = RecordingFetcher({"https://api.example/x?q=1": (200, {"X-A": "b"}, b'{"n": 5}')})
    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    r = http.get("https://api.example/x", params = {"q": "1"},\n'
              '                 headers = {"Accept": "json"}, ttl_seconds = 60)\n'
              '    return [r.status_code, r.json()["n"], r.body(), r.headers]\n')
    assert main_value(tmp_path, source, fetch=fetch) == [200, 5, '{"n": 5}', {"X-A": "b"}]
    assert fetch.calls == [("GET", "https://api.example/x?q=1", {"Accept": "json"}, None)]


def test_http_post_sends_a_json_or_form_body(tmp_path: Path) -> None:
    fetch = RecordingFetcher({"https://api.example/p": (201, {}, b"ok")})
    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    a = http.post("https://api.example/p", json_body = {"a": 1})\n'
              '    b = http.post("https://api.example/p", form_body = {"f": "v w"})\n'
              '    return [a.status_code, b.body()]\n')
    assert main_value(tmp_path, source, fetch=fetch) == [201, "ok"]
    assert [call[3] for call in fetch.calls] == [b'{"a": 1}', b"f=v+w"]
    assert fetch.calls[1][2]["Content-Type"] == "application/x-www-form-urlencoded"


def test_answers_asked_with_a_ttl_are_kept_between_renders(tmp_path: Path) -> None:
    fetch = RecordingFetcher({"https://api.example/t": (200, {}, b"\x89bin"),
                              "https://api.example/n": (200, {}, b"fresh")})
    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    http.get("https://api.example/t", ttl_seconds = 60)\n'
              '    return http.get("https://api.example/n").body()\n')
    kept = AppCache(clock=Clock())
    for _ in range(3):
        assert main_value(tmp_path, source, fetch=fetch, http_cache=kept) == "fresh"
    urls = [call[1] for call in fetch.calls]
    assert urls.count("https://api.example/t") == 1 and urls.count("https://api.example/n") == 3


def test_a_kept_answer_expires_with_its_ttl(tmp_path: Path) -> None:
    fetch = RecordingFetcher({"https://api.example/t": (200, {}, b"x")})
    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    return http.get("https://api.example/t", ttl_seconds = 60).body()\n')
    clock = Clock()
    kept = AppCache(clock=clock)
    main_value(tmp_path, source, fetch=fetch, http_cache=kept)
    clock.now += 61
    main_value(tmp_path, source, fetch=fetch, http_cache=kept)
    assert len(fetch.calls) == 2


def test_time_waiting_for_a_fetch_is_not_counted_against_the_budget(tmp_path: Path) -> None:
    clock = Clock()

    def slow(method: str, url: str, headers: dict[str, str], body: bytes | None,
             timeout: float) -> tuple[int, dict[str, str], bytes]:
        clock.now += 4.0  # the answer took four seconds to come
        return 200, {}, b"late"

    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    bodies = [http.get("https://api.example/a").body() for i in range(2)]\n'
              '    n = 0\n'
              '    for i in range(20000):\n'  # enough work for the budget to be checked
              '        n += i\n'
              '    return bodies\n')
    assert main_value(tmp_path, source, fetch=slow, clock=clock) == ["late", "late"]


def test_the_apps_own_time_still_counts_around_fetches(tmp_path: Path) -> None:
    clock = Clock()

    def fast(method: str, url: str, headers: dict[str, str], body: bytes | None,
             timeout: float) -> tuple[int, dict[str, str], bytes]:
        return 200, {}, b"ok"

    def ticking() -> float:
        clock.now += 0.01  # each check of the budget sees the app's own time pass
        return clock.now

    source = ('load("http.star", "http")\n'
              'def main(config):\n'
              '    http.get("https://api.example/a")\n'
              '    n = 0\n'
              '    for i in range(100000000):\n'
              '        n += i\n')
    with pytest.raises(AppError, match="longer than 1 s"):
        main_value(tmp_path, source, fetch=fast, clock=ticking)


@pytest.fixture
def local_server() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            port = self.server.server_address[1]
            status, headers, body = {
                "/": (200, {"X-Kind": "plain"}, b"secret"),
                "/missing": (404, {"X-Kind": "gone"}, b"nope"),
                "/hop": (302, {"Location": f"http://localhost:{port}/"}, b""),
            }[self.path]
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _get(url: str) -> str:
    return ('load("http.star", "http")\n'
            'def main(config):\n'
            f'    r = http.get("{url}")\n'
            '    return [r.status_code, r.headers.get("X-Kind"), r.body()]\n')


def test_the_default_fetcher_refuses_internal_addresses(tmp_path: Path, local_server: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    with pytest.raises(AppError) as caught:
        main_value(tmp_path, _get(local_server), fetch=PublicFetcher())
    assert "127.0.0.1 is a loopback address" in str(caught.value)
    assert str(caught.value).startswith("app.star:3: http.get http://127.0.0.1:")


def test_an_allowed_host_answers_with_status_headers_and_body(
        tmp_path: Path, local_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    host = local_server.split("/")[2]
    monkeypatch.setenv(ALLOW_ENV, f"example.invalid,{host}")
    assert main_value(tmp_path, _get(local_server), fetch=PublicFetcher()) == [
        200, "plain", "secret"]
    assert main_value(tmp_path, _get(local_server + "missing"), fetch=PublicFetcher()) == [
        404, "gone", "nope"]


def test_a_redirect_to_a_host_not_allowed_is_refused(
        tmp_path: Path, local_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOW_ENV, local_server.split("/")[2])  # 127.0.0.1:port, not localhost
    with pytest.raises(AppError, match="localhost .*is a loopback address"):
        main_value(tmp_path, _get(local_server + "hop"), fetch=PublicFetcher())
