"""The token scope table: what read, control and admin may send."""

from __future__ import annotations

from shared.sign_in.store import Identity, token_scope
from web_service.access import scopes


def test_the_least_scope_each_request_needs() -> None:
    assert scopes.needed("GET", "/api/v3/config/main") == "read"
    assert scopes.needed("head", "/api/v3/backup/download") == "read"
    assert scopes.needed("POST", "/api/v3/display/on-demand/start") == "control"
    assert scopes.needed("POST", "/api/v3/display/on-demand/stop/") == "control"
    assert scopes.needed("POST", "/api/v3/notify") == "control"
    assert scopes.needed("DELETE", "/api/v3/notify/3f9c2a7d81b04e65") == "control"
    assert scopes.needed("DELETE", "/api/v3/notify/a/b") == "admin"
    assert scopes.needed("PUT", "/api/v3/notify") == "admin"
    for method, path in (("POST", "/api/v3/config/main"), ("POST", "/api/v3/auth/tokens"),
                         ("DELETE", "/api/v3/auth/tokens/x"), ("PUT", "/api/v3/display/"
                                                                       "on-demand/start")):
        assert scopes.needed(method, path) == "admin", (method, path)


def test_a_scope_allows_what_it_covers_and_less() -> None:
    read, control = Identity("token", "r", scope="read"), Identity("token", "c", scope="control")
    assert scopes.refusal_message(read, "GET", "/api/v3/config/main") is None
    assert "needs 'control'" in (scopes.refusal_message(
        read, "POST", "/api/v3/display/on-demand/start") or "")
    assert scopes.refusal_message(control, "POST", "/api/v3/display/on-demand/start") is None
    assert scopes.refusal_message(control, "POST", "/api/v3/config/main") is not None
    assert scopes.refusal_message(Identity("session"), "POST", "/api/v3/auth/tokens") is None


def test_stored_tokens_without_a_scope_are_admin_and_unknown_ones_read() -> None:
    assert token_scope({"name": "old"}) == "admin"
    assert token_scope({"scope": "control"}) == "control"
    assert token_scope({"scope": "root"}) == "read"
