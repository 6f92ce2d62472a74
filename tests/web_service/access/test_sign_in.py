"""Optional sign-in against the real web daemon over HTTP: off by default, then on."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import requests

from tests.web_service.conftest import WebEnv
from tests.web_service.sign_in_helpers import (
    PASSWORD,
    TIMEOUT,
    ledpanel,
    page_token,
    running_web,
    signed_in,
    stored,
    switch_on,
)

pytestmark = pytest.mark.timeout(120)


def test_sign_in_is_off_by_default_and_every_route_stays_open(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        status = requests.get(f"{url}/api/v3/auth/status", timeout=TIMEOUT).json()["data"]
        assert status == {"enabled": False, "in_force": False, "password_set": False,
                          "signed_in": False, "method": None, "token_name": None,
                          "expires_at": None}
        assert requests.get(f"{url}/", timeout=TIMEOUT).status_code == 200
        assert requests.get(f"{url}/api/v3/system/status", timeout=TIMEOUT).status_code == 200
        saved = requests.post(f"{url}/api/v3/config/main", json={"brightness": 40},
                              timeout=TIMEOUT)
        assert saved.status_code == 200
        # A password alone changes nothing while the setting is off.
        answer = requests.post(f"{url}/api/v3/auth/password", json={"password": PASSWORD},
                               headers={"X-Ledpanel-Token": page_token(url)}, timeout=TIMEOUT)
        assert answer.status_code == 200
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 200
        config = json.loads((instance.config_dir / "config.json").read_text())
        assert config["web"]["sign_in"] == {"enabled": False, "session_days": 30}


def test_switching_on_without_a_password_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        before = (instance.config_dir / "config.json").read_bytes()
        form = {"web.sign_in.enabled": "on", "__form_section": "web.sign_in"}
        raw = json.loads(before)
        raw["web"]["sign_in"]["enabled"] = True
        for route, body in (("main", {"json": {"web": {"sign_in": {"enabled": True}}}}),
                            ("main", {"data": form}), ("raw/main", {"data": json.dumps(raw)})):
            answer = requests.post(f"{url}/api/v3/config/{route}", **body, timeout=TIMEOUT)
            assert answer.status_code == 400, answer.text
            envelope = answer.json()
            assert envelope["error_code"] == "SIGN_IN_PASSWORD_REQUIRED"
            assert envelope["details"]["field"] == "web.sign_in.password"
            assert "web.sign_in.password" in envelope["message"]
        assert (instance.config_dir / "config.json").read_bytes() == before
        assert not (instance.config_dir / "sign_in.json").exists()
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 200
        bad = requests.post(f"{url}/api/v3/config/main",
                            json={"web": {"sign_in": {"enabled": "maybe"}}}, timeout=TIMEOUT)
        assert bad.status_code == 400 and "web.sign_in.enabled" in bad.json()["message"]


def test_without_sign_in_the_api_answers_401_and_pages_go_to_the_sign_in_page(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        for path in ("/api/v3/system/status", "/api/v3/config/main", "/api/v3"):
            answer = requests.get(f"{url}{path}", timeout=TIMEOUT)
            assert answer.status_code == 401, path
            assert answer.json()["error_code"] == "SIGN_IN_REQUIRED"
            assert answer.headers["WWW-Authenticate"].startswith("Bearer")
        refused = requests.post(f"{url}/api/v3/config/main", json={"brightness": 10},
                                timeout=TIMEOUT)
        assert refused.status_code == 401
        page = requests.get(f"{url}/?x=1", allow_redirects=False, timeout=TIMEOUT)
        assert page.status_code == 303
        assert page.headers["Location"] == "/sign-in?next=/%3Fx%3D1"
        sign_in_page = requests.get(f"{url}/sign-in", timeout=TIMEOUT)
        assert sign_in_page.status_code == 200 and 'type="password"' in sign_in_page.text
        # Monitoring keeps working.
        assert requests.get(f"{url}/api/v3/health", timeout=TIMEOUT).status_code == 200
        status = requests.get(f"{url}/api/v3/auth/status", timeout=TIMEOUT).json()["data"]
        assert status["enabled"] and status["in_force"] and status["password_set"]
        assert not status["signed_in"]


def test_a_wrong_password_is_refused_and_guessing_is_rate_limited(tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        for attempt in range(5):
            answer = requests.post(f"{url}/api/v3/auth/sign-in",
                                   json={"password": f"guess number {attempt}"},
                                   timeout=TIMEOUT)
            assert answer.status_code == 401
            assert answer.json()["error_code"] == "WRONG_PASSWORD"
            assert "Set-Cookie" not in answer.headers
        # Now even the right password waits: the limit is checked before the password.
        limited = requests.post(f"{url}/api/v3/auth/sign-in", json={"password": PASSWORD},
                                timeout=TIMEOUT)
        assert limited.status_code == 429
        assert limited.json()["error_code"] == "RATE_LIMITED"
        assert 0 < int(limited.headers["Retry-After"]) <= 300
        assert "Set-Cookie" not in limited.headers
        empty = requests.post(f"{url}/api/v3/auth/sign-in", json={}, timeout=TIMEOUT)
        assert empty.status_code == 400 and empty.json()["error_code"] == "INVALID_FIELD"


def test_a_session_cookie_opens_pages_and_api_until_sign_out(tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        session = requests.Session()
        answer = session.post(f"{url}/api/v3/auth/sign-in", json={"password": PASSWORD},
                              timeout=TIMEOUT)
        assert answer.status_code == 200
        cookie = answer.headers["Set-Cookie"]
        assert cookie.startswith("ledpanel_session=")
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
        assert answer.json()["data"]["expires_at"] > time.time() + 29 * 86400
        assert session.get(f"{url}/", allow_redirects=False, timeout=TIMEOUT).status_code == 200
        assert session.get(f"{url}/api/v3/system/status", timeout=TIMEOUT).status_code == 200
        saved = session.post(f"{url}/api/v3/config/main", json={"brightness": 33},
                             timeout=TIMEOUT)
        assert saved.status_code == 200
        status = session.get(f"{url}/api/v3/auth/status", timeout=TIMEOUT).json()["data"]
        assert status["signed_in"] and status["method"] == "session"
        old_cookie = session.cookies.get("ledpanel_session")
        out = session.post(f"{url}/api/v3/auth/sign-out", timeout=TIMEOUT)
        assert out.status_code == 200
        assert session.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401
        # The session is forgotten on the device, not only deleted from the browser.
        replayed = requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT,
                                cookies={"ledpanel_session": old_cookie})
        assert replayed.status_code == 401


def test_an_expired_or_made_up_session_is_refused(tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        switch_on(url)
        session = signed_in(url)
        assert session.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 200
        made_up = requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT,
                               cookies={"ledpanel_session": "x" * 43})
        assert made_up.status_code == 401
        data = stored(instance)
        data["sessions"][0]["expires_at"] = time.time() - 1
        (instance.config_dir / "sign_in.json").write_text(json.dumps(data))
        assert session.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401


def test_a_bearer_token_works_until_it_is_revoked(tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        browser = signed_in(url)
        made = browser.post(f"{url}/api/v3/auth/tokens",
                            json={"name": "home-assistant", "scope": "admin"}, timeout=TIMEOUT)
        assert made.status_code == 201
        token = made.json()["data"]["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        answer = requests.get(f"{url}/api/v3/system/status", headers=bearer, timeout=TIMEOUT)
        assert answer.status_code == 200
        saved = requests.post(f"{url}/api/v3/config/main", json={"brightness": 55},
                              headers=bearer, timeout=TIMEOUT)
        assert saved.status_code == 200
        listed = browser.get(f"{url}/api/v3/auth/tokens", timeout=TIMEOUT).json()["data"]
        assert [set(t) for t in listed["tokens"]] == [{"id", "name", "scope", "created_at"}]
        again = browser.post(f"{url}/api/v3/auth/tokens",
                             json={"name": "home-assistant", "scope": "read"}, timeout=TIMEOUT)
        assert again.status_code == 409 and again.json()["error_code"] == "TOKEN_NAME_TAKEN"
        revoked = requests.delete(f"{url}/api/v3/auth/tokens/{made.json()['data']['id']}",
                                  headers=bearer, timeout=TIMEOUT)
        assert revoked.status_code == 200
        refused = requests.get(f"{url}/api/v3/system/status", headers=bearer, timeout=TIMEOUT)
        assert refused.status_code == 401
        assert refused.json()["error_code"] == "TOKEN_INVALID"
        # A token judged wrong is not rescued by a session cookie sent along.
        mixed = browser.get(f"{url}/api/v3/system/status", headers=bearer, timeout=TIMEOUT)
        assert mixed.status_code == 401


def test_the_command_line_makes_and_revokes_tokens_the_running_web_honours(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        switch_on(url)
        made = ledpanel(instance, "sign-in", "token", "create", "backup-script", "--scope",
                        "admin")
        assert made.returncode == 0, made.stderr
        token = made.stdout.strip()
        bearer = {"Authorization": f"Bearer {token}"}
        assert requests.get(f"{url}/api/v3/config/main", headers=bearer,
                            timeout=TIMEOUT).status_code == 200
        refused = ledpanel(instance, "status", "--json", "--url", url)
        assert refused.returncode == 1 and "LEDPANEL_TOKEN" in refused.stderr
        status = ledpanel(instance, "status", "--json", "--url", url, token=token)
        assert json.loads(status.stdout)["source"] == "web", status.stderr
        listed = ledpanel(instance, "sign-in", "token", "list")
        assert "backup-script" in listed.stdout and token not in listed.stdout
        assert ledpanel(instance, "sign-in", "token", "revoke", "backup-script").returncode == 0
        assert requests.get(f"{url}/api/v3/config/main", headers=bearer,
                            timeout=TIMEOUT).status_code == 401
        missing = ledpanel(instance, "sign-in", "token", "revoke", "backup-script")
        assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_changing_the_password_needs_the_old_one_and_signs_other_browsers_out(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        mine, other = signed_in(url), signed_in(url)
        new = "a much better passphrase"
        refused = mine.post(f"{url}/api/v3/auth/password", json={"password": new},
                            timeout=TIMEOUT)
        assert refused.status_code == 400 and refused.json()["details"]["field"] == (
            "current_password")
        wrong = mine.post(f"{url}/api/v3/auth/password",
                          json={"password": new, "current_password": "not it at all"},
                          timeout=TIMEOUT)
        assert wrong.status_code == 401
        short = mine.post(f"{url}/api/v3/auth/password",
                          json={"password": "short", "current_password": PASSWORD},
                          timeout=TIMEOUT)
        assert short.status_code == 400 and "8 to 256" in short.json()["message"]
        changed = mine.post(f"{url}/api/v3/auth/password",
                            json={"password": new, "current_password": PASSWORD},
                            timeout=TIMEOUT)
        assert changed.status_code == 200
        assert mine.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 200
        assert other.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401
        old = requests.post(f"{url}/api/v3/auth/sign-in", json={"password": PASSWORD},
                            timeout=TIMEOUT)
        assert old.status_code == 401
        signed_in(url, new)


def test_a_hand_edit_switching_on_without_a_password_says_how_to_get_in(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        made = ledpanel(instance, "sign-in", "token", "create", "rescue", "--scope", "admin")
        config_file = instance.config_dir / "config.json"
        config = json.loads(config_file.read_text())
        config["web"]["sign_in"]["enabled"] = True
        config_file.write_text(json.dumps(config))
        answer = requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT)
        assert answer.status_code == 401
        assert "ledpanel sign-in password" in answer.json()["message"]
        page = requests.get(f"{url}/sign-in", timeout=TIMEOUT)
        assert "no password is set" in page.text and "ledpanel sign-in password" in page.text
        attempt = requests.post(f"{url}/api/v3/auth/sign-in", json={"password": PASSWORD},
                                timeout=TIMEOUT)
        assert attempt.status_code == 409
        assert attempt.json()["error_code"] == "SIGN_IN_NO_PASSWORD"
        bearer = {"Authorization": f"Bearer {made.stdout.strip()}"}
        assert requests.get(f"{url}/api/v3/config/main", headers=bearer,
                            timeout=TIMEOUT).status_code == 200
        # The way back in from a shell.
        assert ledpanel(instance, "sign-in", "password", "--stdin",
                        stdin=PASSWORD + "\n").returncode == 0
        assert signed_in(url).get(f"{url}/", timeout=TIMEOUT).status_code == 200


def test_a_config_file_that_does_not_parse_never_opens_a_signed_in_device(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        switch_on(url)
        (instance.config_dir / "config.json").write_text('{"web": {"sign_in": ')
        for path in ("/api/v3/config/raw/main", "/api/v3/system/status"):
            assert requests.get(f"{url}{path}", timeout=TIMEOUT).status_code == 401
        # The raw editor can still repair the file for a signed-in browser.
        raw = signed_in(url).get(f"{url}/api/v3/config/raw/main", timeout=TIMEOUT)
        assert raw.status_code == 200 and raw.json()["data"]["content"].startswith('{"web"')


def test_a_fresh_web_app_on_an_unreadable_config_asks_for_sign_in_if_a_password_is_set(
        web: WebEnv) -> None:
    web.paths.config_file.write_text("not json")
    assert web.client.get("/api/v3/config/raw/main").status_code == 200  # no password
    answer = web.client.post("/api/v3/auth/password", json={"password": PASSWORD},
                             headers={"X-Ledpanel-Token": (web.paths.config_dir
                                                          / ".page_token").read_text().strip()})
    assert answer.status_code == 200
    assert web.client.get("/api/v3/config/raw/main").status_code == 401


def test_a_hand_edit_switching_on_with_no_password_or_token_is_not_in_force(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (instance, url):
        config_file = instance.config_dir / "config.json"
        config = json.loads(config_file.read_text())
        config["web"]["sign_in"]["enabled"] = True
        config_file.write_text(json.dumps(config))
        status = requests.get(f"{url}/api/v3/auth/status", timeout=TIMEOUT).json()["data"]
        assert status["enabled"] and not status["in_force"] and not status["password_set"]
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 200
        page = requests.get(f"{url}/sign-in", timeout=TIMEOUT).text
        assert "not in force" in page and "ledpanel sign-in password" in page
        # Once a password exists, the setting the user wrote is in force.
        assert ledpanel(instance, "sign-in", "password", "--stdin",
                        stdin=PASSWORD + "\n").returncode == 0
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401
