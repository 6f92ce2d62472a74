"""Sign-in against a hostile network, over real HTTP to the real web daemon: wrong
passwords from other addresses, a stranger setting the first password, token scopes.

Other clients are other loopback addresses (127.0.0.2, 127.0.0.3, ...): the client
socket is bound to them, so the daemon sees each as its own address.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from tests.daemons import running
from tests.display_service.helpers import wait_until
from tests.system.test_no_lost_changes import make_instance, running_state, state
from tests.web_service.sign_in_helpers import (
    PASSWORD,
    TIMEOUT,
    client_at,
    ledpanel,
    page_token,
    running_web,
    signed_in,
    stored,
    switch_on,
)

pytestmark = pytest.mark.timeout(180)
WRONG = "not the password at all"


def _sign_in(client: requests.Session, url: str, password: str) -> requests.Response:
    return client.post(f"{url}/api/v3/auth/sign-in", json={"password": password},
                       timeout=TIMEOUT)


def _assert_says_how_long(answer: requests.Response) -> int:
    assert answer.status_code == 429, answer.text
    envelope = answer.json()
    assert envelope["error_code"] == "RATE_LIMITED"
    seconds = int(answer.headers["Retry-After"])
    assert seconds > 0 and envelope["details"]["retry_after"] == seconds
    assert f"wait {seconds} s" in envelope["message"]
    return seconds


def test_wrong_passwords_from_many_addresses_never_lock_the_owner_out(tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        attackers = [client_at(f"127.0.0.{n}") for n in range(2, 12)]  # 10 addresses
        for attacker in attackers:  # 5 each: 50 wrong passwords, the total limit
            for _ in range(5):
                assert _sign_in(attacker, url, WRONG).status_code == 401
        # Each attacking address is held off, for a time it is told, even with the
        # right password; trying again while refused does not renew the wait.
        first = _assert_says_how_long(_sign_in(attackers[0], url, PASSWORD))
        assert 0 < first <= 300
        again = _assert_says_how_long(_sign_in(attackers[0], url, PASSWORD))
        assert again <= first
        # The owner, on another address, gets in at once with the right password.
        owner = client_at("127.0.0.1")
        assert _sign_in(owner, url, PASSWORD).status_code == 200
        # Above the total, an address that failed once is slowed (told how long) ...
        other = client_at("127.0.0.20")
        assert _sign_in(other, url, WRONG).status_code == 401
        slowed = _assert_says_how_long(_sign_in(other, url, PASSWORD))
        assert slowed <= 60
        # ... and an address that never failed still is not.
        assert _sign_in(client_at("127.0.0.21"), url, PASSWORD).status_code == 200


def test_one_address_guessing_locks_only_itself(tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        guesser, owner = client_at("127.0.0.2"), client_at("127.0.0.3")
        for _ in range(5):
            assert _sign_in(guesser, url, WRONG).status_code == 401
        _assert_says_how_long(_sign_in(guesser, url, PASSWORD))
        assert _sign_in(owner, url, WRONG).status_code == 401  # below the total: no wait
        assert _sign_in(owner, url, PASSWORD).status_code == 200


def test_a_stranger_cannot_set_the_first_password(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        # curl-like: no page token, no session, no token.
        answer = requests.post(f"{url}/api/v3/auth/password", json={"password": "mine now!"},
                               timeout=TIMEOUT)
        assert answer.status_code == 403
        envelope = answer.json()
        assert envelope["error_code"] == "FIRST_PASSWORD_REFUSED"
        assert "ledpanel sign-in password" in envelope["message"]
        # Nor by switching sign-in on with a password of its choice.
        answer = requests.post(f"{url}/api/v3/config/main", json={
            "web": {"sign_in": {"enabled": True, "password": "mine now!"}}}, timeout=TIMEOUT)
        assert answer.status_code == 403
        assert answer.json()["error_code"] == "FIRST_PASSWORD_REFUSED"
        assert not (instance.config_dir / "sign_in.json").exists()
        config = json.loads((instance.config_dir / "config.json").read_text())
        assert config["web"]["sign_in"]["enabled"] is False
        # A wrong page token proves nothing either.
        answer = requests.post(f"{url}/api/v3/auth/password", json={"password": "mine now!"},
                               headers={"X-Ledpanel-Token": "guessed"}, timeout=TIMEOUT)
        assert answer.status_code == 403


def test_the_owners_page_switches_sign_in_on_with_its_first_password(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        token = page_token(url)
        form = {"web.sign_in.enabled": "on", "web.sign_in.password": PASSWORD,
                "__form_section": "web.sign_in", "csrf_token": token}
        answer = requests.post(f"{url}/api/v3/config/main", data=form,
                               headers={"Origin": url}, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        config_text = (instance.config_dir / "config.json").read_text()
        assert PASSWORD not in config_text and "password" not in config_text
        assert json.loads(config_text)["web"]["sign_in"]["enabled"] is True
        assert stored(instance)["password"]["scheme"] == "scrypt"
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401
        signed_in(url)


def test_a_password_set_on_the_device_must_be_carried_to_switch_sign_in_on(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        assert ledpanel(instance, "sign-in", "password", "--stdin",
                        stdin=PASSWORD + "\n").returncode == 0
        main = f"{url}/api/v3/config/main"
        missing = requests.post(main, json={"web": {"sign_in": {"enabled": True}}},
                                timeout=TIMEOUT)
        assert missing.status_code == 400
        assert missing.json()["details"]["field"] == "web.sign_in.password"
        wrong = requests.post(main, json={"web": {"sign_in": {"enabled": True,
                                                              "password": WRONG}}},
                              timeout=TIMEOUT)
        assert wrong.status_code == 401 and wrong.json()["error_code"] == "WRONG_PASSWORD"
        assert requests.get(main, timeout=TIMEOUT).status_code == 200  # still off
        right = requests.post(main, json={"web": {"sign_in": {"enabled": True,
                                                              "password": PASSWORD}}},
                              timeout=TIMEOUT)
        assert right.status_code == 200, right.text
        assert requests.get(main, timeout=TIMEOUT).status_code == 401


def test_an_admin_token_may_set_the_first_password_a_read_token_may_not(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        tokens = {}
        for scope in ("read", "admin"):
            made = ledpanel(instance, "sign-in", "token", "create", scope, "--scope", scope)
            assert made.returncode == 0, made.stderr
            tokens[scope] = {"Authorization": f"Bearer {made.stdout.strip()}"}
        refused = requests.post(f"{url}/api/v3/auth/password", json={"password": PASSWORD},
                                headers=tokens["read"], timeout=TIMEOUT)
        assert refused.status_code == 403
        done = requests.post(f"{url}/api/v3/auth/password", json={"password": PASSWORD},
                             headers=tokens["admin"], timeout=TIMEOUT)
        assert done.status_code == 200, done.text
        signed_in(url)


def test_token_scopes_read_control_admin(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        switch_on(url)
        browser = signed_in(url)
        bearer = {}
        for scope in ("read", "control", "admin"):
            made = browser.post(f"{url}/api/v3/auth/tokens",
                                json={"name": f"{scope}-script", "scope": scope},
                                timeout=TIMEOUT)
            assert made.status_code == 201 and made.json()["data"]["scope"] == scope
            bearer[scope] = {"Authorization": f"Bearer {made.json()['data']['token']}"}
        api = f"{url}/api/v3"
        for scope in bearer:  # every scope reads
            answer = requests.get(f"{api}/config/main", headers=bearer[scope], timeout=TIMEOUT)
            assert answer.status_code == 200, scope
        # read: no POST at all, 403 with a code and a message saying what is needed
        refused = requests.post(f"{api}/display/on-demand/stop", headers=bearer["read"],
                                timeout=TIMEOUT)
        assert refused.status_code == 403
        assert refused.json()["error_code"] == "TOKEN_SCOPE"
        assert "'control'" in refused.json()["message"]
        # control: on-demand yes (the running display starts and stops it), config and
        # tokens no
        started = requests.post(f"{api}/display/on-demand/start", headers=bearer["control"],
                                json={"plugin_id": "still"}, timeout=TIMEOUT)
        assert started.status_code == 200, started.text
        wait_until(lambda: state(instance).get("on_demand", {}).get("state") == "active")
        stopped = requests.post(f"{api}/display/on-demand/stop", headers=bearer["control"],
                                timeout=TIMEOUT)
        assert stopped.status_code == 200, stopped.text
        for path, body in (("config/main", {"brightness": 20}),
                           ("auth/tokens", {"name": "more", "scope": "read"})):
            answer = requests.post(f"{api}/{path}", json=body, headers=bearer["control"],
                                   timeout=TIMEOUT)
            assert answer.status_code == 403 and answer.json()["error_code"] == "TOKEN_SCOPE"
        # admin: mints tokens, changes config
        minted = requests.post(f"{api}/auth/tokens", json={"name": "more", "scope": "read"},
                               headers=bearer["admin"], timeout=TIMEOUT)
        assert minted.status_code == 201
        saved = requests.post(f"{api}/config/main", json={"brightness": 20},
                              headers=bearer["admin"], timeout=TIMEOUT)
        assert saved.status_code == 200
        no_scope = browser.post(f"{api}/auth/tokens", json={"name": "vague"}, timeout=TIMEOUT)
        assert no_scope.status_code == 400 and no_scope.json()["details"]["field"] == "scope"


def test_tokens_are_minted_only_by_a_session_or_an_admin_token(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        # Sign-in off: the API is open, but a token outlives that; a stranger gets none.
        answer = requests.post(f"{url}/api/v3/auth/tokens",
                               json={"name": "backdoor", "scope": "admin"}, timeout=TIMEOUT)
        assert answer.status_code == 403 and answer.json()["error_code"] == "ADMIN_REQUIRED"
        assert "sign" in answer.json()["message"]
        assert not (instance.config_dir / "sign_in.json").exists()


def test_a_token_made_before_scopes_keeps_working_as_admin(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        switch_on(url)
        made = ledpanel(instance, "sign-in", "token", "create", "old", "--scope", "read")
        data = stored(instance)
        del data["tokens"][0]["scope"]  # as written by a version without scopes
        (instance.config_dir / "sign_in.json").write_text(json.dumps(data))
        bearer = {"Authorization": f"Bearer {made.stdout.strip()}"}
        saved = requests.post(f"{url}/api/v3/config/main", json={"brightness": 30},
                              headers=bearer, timeout=TIMEOUT)
        assert saved.status_code == 200
        listed = requests.get(f"{url}/api/v3/auth/tokens", headers=bearer, timeout=TIMEOUT)
        assert listed.json()["data"]["tokens"][0]["scope"] == "admin"
