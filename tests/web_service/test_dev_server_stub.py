"""The web daemon starts without Werkzeug's development server, and loses nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.web_service.conftest import WebEnv


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.split()


def test_the_app_builds_without_the_dev_server_and_its_imports() -> None:
    out = _run("""
        import sys
        from web_service.dev_server_stub import keep_dev_server_unloaded
        print(keep_dev_server_unloaded())
        import web_service.app
        print(*(name in sys.modules for name in ("http.server", "ssl", "http.client")))
        print(keep_dev_server_unloaded())
    """)
    assert out == ["True", "False", "False", "False", "False"]


def test_every_name_of_the_dev_server_is_still_there() -> None:
    out = _run("""
        import sys
        from web_service.dev_server_stub import keep_dev_server_unloaded
        keep_dev_server_unloaded()
        import flask
        from werkzeug.serving import is_running_from_reloader, run_simple
        print(is_running_from_reloader(), callable(run_simple))
        import werkzeug.serving
        print(werkzeug.serving.WSGIRequestHandler.__module__)
        print(sys.modules["werkzeug.serving"].__file__.endswith("serving.py"))
        print(werkzeug.serving is sys.modules["werkzeug.serving"])
    """)
    assert out == ["False", "True", "werkzeug.serving", "True", "True"]


def test_a_process_that_has_werkzeug_already_is_left_alone(web: WebEnv) -> None:
    from web_service.dev_server_stub import keep_dev_server_unloaded

    assert "werkzeug" in sys.modules
    assert keep_dev_server_unloaded() is False
    assert web.client.get("/api/v3/health").status_code == 200
