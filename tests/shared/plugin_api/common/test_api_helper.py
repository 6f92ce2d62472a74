"""APIHelper against a real loopback HTTP server: answers, retries, time bounds, caching."""

from __future__ import annotations

import json
import logging
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from shared.plugin_api.cache.manager import CacheManager
from shared.plugin_api.common.api_helper import APIHelper
from tests.shared.loopback_http import Route, fixed, hold, serving

GAMES = {"events": [{"id": "1", "name": "A at B"}]}


def json_route(data: object = GAMES) -> Route:
    return fixed(200, "application/json", json.dumps(data).encode())


def failing_first(times: int, status: int = 500) -> Route:
    """A route that answers ``status`` ``times`` times, then the games."""
    calls = [0]

    def route(_handler: BaseHTTPRequestHandler) -> tuple[int, str, bytes]:
        calls[0] += 1
        if calls[0] <= times:
            return status, "text/plain", b"busy"
        return 200, "application/json", json.dumps(GAMES).encode()

    return route


def make_helper(**kwargs: object) -> APIHelper:
    helper = APIHelper(backoff_factor=0.01, **kwargs)  # type: ignore[arg-type]
    helper.set_rate_limit(0)
    return helper


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_json_answer_is_returned_decoded() -> None:
    with serving({"/games": json_route()}) as srv:
        assert make_helper().get(srv.url("/games"), params={"day": "1"}) == GAMES


def test_a_server_error_is_retried_until_it_answers() -> None:
    with serving({"/games": failing_first(2)}) as srv:
        assert make_helper(max_retries=2).get(srv.url("/games")) == GAMES
        assert srv.hits["/games"] == 3


def test_retries_stop_after_max_retries_and_answer_none(caplog: pytest.LogCaptureFixture) -> None:
    with serving({"/games": failing_first(99, status=503)}) as srv:
        with caplog.at_level(logging.WARNING):
            assert make_helper(max_retries=2).get(srv.url("/games")) is None
        assert srv.hits["/games"] == 3
    assert "GET http://127.0.0.1" in caplog.text and "HTTP 503" in caplog.text


def test_a_client_error_is_not_retried() -> None:
    with serving({"/games": fixed(404, "text/plain", b"no")}) as srv:
        assert make_helper(max_retries=3).get(srv.url("/games")) is None
        assert srv.hits["/games"] == 1


def test_a_server_that_never_answers_is_given_up_in_bounded_time() -> None:
    routes: dict[str, Route] = {}
    with serving(routes) as srv:
        routes["/slow"] = hold(srv, 30)
        helper = make_helper(default_timeout=0.5, max_retries=5)
        started = time.monotonic()
        assert helper.get(srv.url("/slow")) is None
        elapsed = time.monotonic() - started
        assert srv.hits["/slow"] >= 2  # a timeout is worth another try ...
    assert 0.5 <= elapsed < 3 * 0.5 + 0.5  # ... but not past the call's budget


def test_an_answer_that_is_not_json_is_none(caplog: pytest.LogCaptureFixture) -> None:
    with serving({"/bad": fixed(200, "application/json", b"{not json")}) as srv:
        with caplog.at_level(logging.WARNING):
            assert make_helper().get(srv.url("/bad")) is None
        assert srv.hits["/bad"] == 1
    assert "not JSON" in caplog.text


def test_a_dead_port_is_none_not_an_exception() -> None:
    assert make_helper(max_retries=1, default_timeout=1).get("http://127.0.0.1:9/x") is None
    assert make_helper().get("not a url") is None
    assert make_helper().post("http://127.0.0.1:9/x", json_data={"a": 1}) is None


def test_the_query_string_is_kept_out_of_the_log(caplog: pytest.LogCaptureFixture) -> None:
    with serving({"/q": fixed(401, "text/plain", b"no")}) as srv:
        with caplog.at_level(logging.WARNING):
            make_helper().get(srv.url("/q?apikey=SECRET123"))
            make_helper().get(srv.url("/q"), params={"apikey": "SECRET456"})
    assert "HTTP 401" in caplog.text
    assert "SECRET" not in caplog.text


def test_a_cached_answer_is_used_until_it_is_older_than_cache_ttl(tmp_path: Path) -> None:
    clock = Clock()
    cache = CacheManager(tmp_path, clock=clock)
    with serving({"/games": json_route()}) as srv:
        helper = make_helper(cache_manager=cache)
        for _ in range(3):
            assert helper.get(srv.url("/games"), cache_key="nba_games", cache_ttl=60) == GAMES
        assert srv.hits["/games"] == 1
        clock.now += 61
        assert helper.get(srv.url("/games"), cache_key="nba_games", cache_ttl=60) == GAMES
        assert srv.hits["/games"] == 2
    assert cache.get("nba_games", max_age=None) == GAMES


def test_clear_cache_forgets_only_this_helpers_answers(tmp_path: Path) -> None:
    cache = CacheManager(tmp_path)
    cache.set("someone_elses", {"keep": True})
    with serving({"/games": json_route()}) as srv:
        helper = make_helper(cache_manager=cache)
        helper.get(srv.url("/games"), cache_key="nba_live")
        helper.get(srv.url("/games"), cache_key="nfl_live")
    helper.clear_cache("nba")
    assert cache.get("nba_live") is None and helper.get_cache("nfl_live") == GAMES
    helper.clear_cache()
    assert cache.get("nfl_live") is None
    assert cache.get("someone_elses") == {"keep": True}


def test_espn_shortcuts_ask_for_the_scoreboard_of_the_day() -> None:
    asked: list[str] = []

    def scoreboard(handler: BaseHTTPRequestHandler) -> tuple[int, str, bytes]:
        asked.append(handler.path)
        return 200, "application/json", json.dumps(GAMES).encode()

    with serving({"/sports/football/nfl/scoreboard": scoreboard}) as srv:
        helper = make_helper()
        helper.espn_base_url = srv.url("/sports")
        assert helper.fetch_espn_scoreboard("football", "nfl", date="20250107") == GAMES
    assert asked == ["/sports/football/nfl/scoreboard?dates=20250107&limit=1000"]


def test_requests_are_spaced_by_the_rate_limit() -> None:
    with serving({"/games": json_route()}) as srv:
        helper = make_helper()
        helper.set_rate_limit(0.3)
        started = time.monotonic()
        helper.get(srv.url("/games"))
        helper.get(srv.url("/games"))
        assert time.monotonic() - started >= 0.3
    assert helper.get_request_stats()["min_request_interval"] == 0.3


def test_a_connect_and_read_timeout_pair_is_accepted_as_requests_takes_it() -> None:
    with serving({"/games": json_route()}) as srv:
        assert make_helper().get(srv.url("/games"), timeout=(3, 10)) == GAMES
        assert make_helper(default_timeout=(3, 10)).get(srv.url("/games")) == GAMES
        assert make_helper().post(srv.url("/games"), json_data={}, timeout=[2, 5]) == GAMES


def test_a_read_timeout_in_a_pair_bounds_a_silent_server() -> None:
    with serving({}) as srv:
        srv.routes["/slow"] = hold(srv, 20)
        started = time.monotonic()
        assert make_helper(max_retries=0).get(srv.url("/slow"), timeout=(1, 0.5)) is None
        assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("timeout", [-1, -0.5, float("nan"), (-1, 5), (3, -2), "soon", True])
def test_a_timeout_that_is_no_positive_number_never_raises(
    timeout: object, caplog: pytest.LogCaptureFixture,
) -> None:
    with serving({"/games": json_route()}) as srv:
        answer = make_helper().get(srv.url("/games"), timeout=timeout)  # type: ignore[arg-type]
        helper = make_helper(default_timeout=timeout)  # type: ignore[arg-type]
        assert helper.get(srv.url("/games")) in (GAMES, None)
    assert answer in (GAMES, None)


def test_get_bytes_answers_a_timeout_requests_refuses_with_a_fetch_error() -> None:
    import requests

    from shared.http_fetch import FetchError, get_bytes

    with serving({"/games": json_route()}) as srv, pytest.raises(FetchError, match="timeout"):
        get_bytes(requests.Session(), srv.url("/games"), timeout=-1, max_bytes=1000)
