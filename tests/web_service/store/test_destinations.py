"""The store fetches only from public hosts, unless the operator allowed more.

Real requests through ``store_session()`` with real name resolution: address literals and
``localhost`` need no network. The loopback repository host shows that a refused
destination is never connected to, and that a redirect to a refused host is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.store.repo_host import RepoHost
from web_service.store.destinations import ALLOW_ENV, allowed, store_session
from web_service.store.errors import StoreError

REFUSED = ["127.0.0.1", "localhost", "0.0.0.0", "2130706433", "127.1", "[::1]",
           "169.254.169.254", "10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.1.1",
           "[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "100.64.0.1", "224.0.0.1",
           "239.255.255.250", "[ff02::1]", "[::]", "[::ffff:127.0.0.1]",
           "[::ffff:169.254.169.254]", "[::ffff:10.0.0.1]", "240.0.0.1"]


@pytest.fixture
def guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """No destination allowed by the operator."""
    monkeypatch.delenv(ALLOW_ENV, raising=False)


@pytest.mark.parametrize("host", REFUSED)
def test_internal_destinations_are_refused_with_a_message(host: str, guarded: None) -> None:
    with store_session() as session, pytest.raises(StoreError) as caught:
        session.get(f"http://{host}:9/owner/repo", timeout=(2, 2))
    err = caught.value
    assert err.error_code == "HOST_REFUSED"
    assert err.status == 400
    assert f"does not fetch from {host}" in err.message
    assert ALLOW_ENV in err.message and f"{host}:9" in err.message


@pytest.mark.parametrize("url", ["https://127.0.0.1/owner/repo", "https://[::1]:8443/x",
                                 "http://[::ffff:7f00:1]/x"])
def test_https_and_spelling_variants_are_refused_too(url: str, guarded: None) -> None:
    with store_session() as session, pytest.raises(StoreError) as caught:
        session.get(url, timeout=(2, 2))
    assert caught.value.error_code == "HOST_REFUSED"


def test_a_refused_destination_is_never_connected_to(guarded: None) -> None:
    with RepoHost() as host, store_session() as session:
        host.serve("plugins.json", {"plugins": []})
        with pytest.raises(StoreError, match="loopback"):
            session.get(f"{host.url}/plugins.json", timeout=(2, 2))
        assert host.asked("plugins.json") == 0


def test_a_redirect_to_a_refused_host_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with RepoHost() as host, store_session() as session:
        port = host.url.rsplit(":", 1)[1]
        monkeypatch.setenv(ALLOW_ENV, f"127.0.0.1:{port}")
        host.serve("secret", "internal")
        host.redirect["/jump"] = f"http://localhost:{port}/secret"
        with pytest.raises(StoreError) as caught:
            session.get(f"{host.url}/jump", timeout=(2, 2))
        assert "does not fetch from localhost" in caught.value.message
        assert host.asked("/jump") == 1 and host.asked("/secret") == 0


def test_redirects_between_allowed_hosts_are_followed_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with RepoHost() as host, store_session() as session:
        monkeypatch.setenv(ALLOW_ENV, "127.0.0.1")
        host.serve("target", "here")
        host.redirect["/one"] = f"{host.url}/target"
        assert session.get(f"{host.url}/one", timeout=(2, 2)).text == "here"
        host.redirect["/loop"] = f"{host.url}/loop"
        with pytest.raises(requests.TooManyRedirects):
            session.get(f"{host.url}/loop", timeout=(2, 2))
        assert host.asked("/loop") == 6  # the first request and five hops


def test_the_allow_list_admits_host_and_host_port_exactly() -> None:
    env = {ALLOW_ENV: " mirror.lan:8080, 127.0.0.1 ,[::1]:81,bad:port:x"}
    assert allowed("mirror.lan", 8080, env)
    assert not allowed("mirror.lan", 8081, env)
    assert not allowed("mirror.lan.evil", 8080, env)
    assert allowed("127.0.0.1", 1, env) and allowed("127.0.0.1", 65535, env)
    assert not allowed("localhost", 1, env)  # a name is matched as written, not resolved
    assert not allowed("127.0.0.2", 1, env)
    assert allowed("[::1]", 81, env) and allowed("::1", 81, env)
    assert not allowed("::1", 80, env)
    assert not allowed("bad", 1, env)
    assert not allowed("127.0.0.1", 1, {})


def test_an_allowed_host_port_is_fetched_and_another_port_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with RepoHost() as host, store_session() as session:
        port = int(host.url.rsplit(":", 1)[1])
        monkeypatch.setenv(ALLOW_ENV, f"127.0.0.1:{port}")
        host.serve("plugins.json", {"plugins": []})
        assert session.get(f"{host.url}/plugins.json", timeout=(2, 2)).status_code == 200
        with pytest.raises(StoreError, match=f"127.0.0.1:{port + 1}"):
            session.get(f"http://127.0.0.1:{port + 1}/plugins.json", timeout=(2, 2))


def test_the_web_daemon_refuses_an_internal_repo_url(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real API: the install job fails with the message, nothing is asked of
    the host, and the store list says the internal registry was refused."""
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    with RepoHost() as host:
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/plugins.json")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        host.serve("plugins.json", {"plugins": []})
        web, url = start_web(Instance(tmp_path))
        try:
            answer = requests.post(f"{url}/api/v3/plugins/install", timeout=30, json={
                "repo_url": f"{host.url}/acme/weather", "wait": 20})
            body = answer.json()
            assert answer.status_code == 400, body
            assert body["error_code"] == "HOST_REFUSED"
            assert "127.0.0.1" in body["message"] and ALLOW_ENV in body["message"]
            listing = requests.get(f"{url}/api/v3/plugins/store/list", timeout=30)
            assert listing.status_code == 503  # nothing cached, the one source refused
            assert listing.json()["error_code"] == "REGISTRY_UNAVAILABLE"
            assert "does not fetch from 127.0.0.1" in listing.json()["message"]
            assert host.asked("/acme/") == 0 and host.asked("plugins.json") == 0
        finally:
            web.stop()


def test_through_a_proxy_the_destination_is_still_checked(
        monkeypatch: pytest.MonkeyPatch, guarded: None) -> None:
    """With a proxy in the environment the connection goes to the proxy, so the URL's host
    is checked before the request is handed to it (the proxy is never asked)."""
    with RepoHost() as proxy, store_session() as session:
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("http_proxy", proxy.url)
        with pytest.raises(StoreError, match="does not fetch from 169.254.169.254"):
            session.get("http://169.254.169.254/latest/meta-data/", timeout=(2, 2))
        assert proxy.requests == []
