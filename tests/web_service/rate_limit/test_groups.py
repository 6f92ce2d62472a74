"""The table of limited routes against the app's real routes and the config's groups."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shared.config.rate_limits import DEFAULT_PER_MINUTE
from shared.config.template import load_template
from web_service.rate_limit.groups import ENDPOINT_GROUPS, NEVER_LIMITED, group_of


def test_every_limited_and_every_polled_endpoint_is_a_route_of_the_app(web) -> None:
    endpoints = {rule.endpoint for rule in web.app.url_map.iter_rules()}
    assert set(ENDPOINT_GROUPS) - endpoints == set()
    assert set(NEVER_LIMITED) - endpoints == set()


def test_what_the_pages_poll_is_never_in_the_table() -> None:
    assert set(NEVER_LIMITED) & set(ENDPOINT_GROUPS) == set()
    assert all(group_of(endpoint, {}) is None for endpoint in NEVER_LIMITED)
    assert group_of(None, {}) is None
    assert group_of("store_ops.install", {}) == "store"


def test_the_stores_list_is_limited_only_when_it_fetches_the_registry() -> None:
    # Searching (as the user types) is answered from the cache; refresh=1 fetches.
    assert group_of("store.store_list", {"query": "clock"}) is None
    assert group_of("store.store_list", {"refresh": "0"}) is None
    assert group_of("store.store_list", {"refresh": " Yes "}) == "store"
    assert group_of("store.store_list", {"refresh": "1", "query": "x"}) == "store"


def test_the_groups_are_the_configs_groups_with_the_templates_numbers() -> None:
    assert set(ENDPOINT_GROUPS.values()) == set(DEFAULT_PER_MINUTE)
    assert load_template()["web"]["rate_limits"]["per_minute"] == DEFAULT_PER_MINUTE


def test_the_web_starts_without_importing_the_limiter(tmp_path: Path) -> None:
    # About 35 ms on a desktop, several times that on a Pi: paid by the first limited
    # request, not by every start.
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from shared.paths import Paths
        from web_service.app import create_app
        from web_service.settings import WebSettings
        base = Path(sys.argv[1])
        app = create_app(WebSettings(paths=Paths(root=base, config_dir=base / "config",
                                                 cache_dir=base / "cache")))
        app.extensions["ledpanel"].store.ensure()
        print(*(name in sys.modules for name in ("flask_limiter", "limits")))
        client = app.test_client()
        client.get("/api/v3/system/status")
        print(*(name in sys.modules for name in ("flask_limiter", "limits")))
        client.post("/api/v3/mqtt/test", json={}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
        print(*(name in sys.modules for name in ("flask_limiter", "limits")))
    """)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "False", "False", "False", "True", "True"]


def test_without_the_limiter_installed_the_routes_answer_unlimited(tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        sys.modules["flask_limiter"] = None  # as if it were not installed
        from shared.paths import Paths
        from web_service.app import create_app
        from web_service.settings import WebSettings
        base = Path(sys.argv[1])
        app = create_app(WebSettings(paths=Paths(root=base, config_dir=base / "config",
                                                 cache_dir=base / "cache")))
        app.extensions["ledpanel"].store.ensure()
        client = app.test_client()
        for _ in range(12):  # past the default 10 a minute of the checks group
            answer = client.post("/api/v3/mqtt/test", json={},
                                 environ_base={"REMOTE_ADDR": "10.0.0.9"})
            print(answer.status_code)
    """)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.split() == ["400"] * 12
    assert done.stderr.count("rate limits are off: Flask-Limiter cannot be imported") == 1


def test_flask_limiter_cannot_hook_an_app_that_served_a_request(web) -> None:
    # Why the counter sets Flask-Limiter up on a private app (web_service/rate_limit/
    # counter.py): the web's own app cannot take its hooks when the first limited request
    # arrives, and importing it at start is what the start cannot afford.
    from flask_limiter import Limiter

    assert web.client.get("/api/v3/health").status_code == 200
    with pytest.raises(AssertionError, match="can no longer be called"):
        Limiter(lambda: "key", storage_uri="memory://").init_app(web.app)
