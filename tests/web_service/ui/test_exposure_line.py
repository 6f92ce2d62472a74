"""The Overview's one line saying the panel is open to the network: shown only while
sign-in is off and the web listens beyond loopback. And the General tab's Sign-in card."""

from __future__ import annotations

import json

import pytest

from shared.sign_in.store import CredentialStore
from tests.web_service.conftest import WebEnv
from web_service.access.exposure import beyond_loopback

LINE = 'id="exposure-warning"'


def _overview(web: WebEnv, host: str) -> str:
    web.app.extensions["ledpanel"].listening = {"host": host, "port": 5000}
    answer = web.client.get("/v3/partials/overview")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "fd00::5", "panel.local"])
def test_the_line_shows_while_sign_in_is_off_and_the_web_listens_beyond_loopback(
        web: WebEnv, host: str) -> None:
    page = _overview(web, host)
    assert LINE in page and "run as root" in page
    assert 'href="#general"' in page and f'data-exposure="{host}:5000"' in page
    assert "<script" not in page  # its behaviour lives in static/sign_in_settings.js


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_no_line_while_the_web_listens_on_loopback_only(web: WebEnv, host: str) -> None:
    assert LINE not in _overview(web, host)


def test_no_line_once_sign_in_is_in_force(web: WebEnv) -> None:
    CredentialStore(web.paths).set_password("correct horse battery")
    config = web.config()
    config["web"]["sign_in"]["enabled"] = True
    web.paths.config_file.write_text(json.dumps(config))
    session = web.client.post("/api/v3/auth/sign-in", json={"password": "correct horse battery"})
    assert session.status_code == 200
    assert LINE not in _overview(web, "0.0.0.0")
    # Switched on by hand without a password: not in force, so the line is back.
    web.paths.config_dir.joinpath("sign_in.json").unlink()
    assert LINE in _overview(web, "0.0.0.0")


def test_beyond_loopback() -> None:
    assert beyond_loopback("0.0.0.0") and beyond_loopback("[::]") and beyond_loopback("")
    assert beyond_loopback("10.0.0.2") and beyond_loopback("raspberrypi.local")
    assert not beyond_loopback("127.0.0.1") and not beyond_loopback("[::1]")
    assert not beyond_loopback("LOCALHOST")


def test_the_general_tab_has_the_sign_in_card_with_a_scope_select_once_signed_in(
        web: WebEnv) -> None:
    page = web.client.get("/v3/partials/general").get_data(as_text=True)
    assert 'id="sign-in-settings"' in page and "data-si-switch-on" in page
    assert 'name="again"' in page  # no password yet: it is chosen here, twice
    assert "data-si-scope" not in page and "ledpanel sign-in token create" in page
    CredentialStore(web.paths).set_password("correct horse battery")
    assert web.client.post("/api/v3/auth/sign-in",
                           json={"password": "correct horse battery"}).status_code == 200
    page = web.client.get("/v3/partials/general").get_data(as_text=True)
    assert "data-si-scope" in page and "data-si-password" in page
    for scope in ("read", "control", "admin"):
        assert f'<option value="{scope}">' in page
