"""Every route's first answer (no query, an empty JSON object as the body) matches the
answer the description gives for its status: the envelope, the ``data`` shape and the
route's error codes. A quick in-process check; the fuzzer goes further on live daemons."""

from __future__ import annotations

from typing import Any

import jsonschema

from web_service.openapi.document import description

# Routes that would start something outside the test (a reboot, a core update, a
# download of the renderer) even for an empty body: left to the fuzzer's own rules.
NOT_SENT = {("post", "/api/v3/system/action"), ("post", "/api/v3/system/update"),
            ("post", "/api/v3/starlark/renderer/install")}


def mismatch(operation: dict[str, Any], answer: Any) -> str | None:
    described = (operation["responses"].get(str(answer.status_code))
                 or operation["responses"]["default"])
    media = described.get("content", {})
    if answer.mimetype not in media:
        return f"{answer.status_code} {answer.mimetype} is not one of {sorted(media)}"
    if answer.mimetype != "application/json":
        return None
    validator = jsonschema.Draft202012Validator(media[answer.mimetype]["schema"])
    problems = [error.message[:200] for error in validator.iter_errors(answer.get_json())]
    return f"{answer.status_code}: {problems}" if problems else None


def test_each_route_answers_as_described(web: Any) -> None:
    web.start_display()
    doc = description(web.app)
    wrong, sent = {}, 0
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if (method, path) in NOT_SENT:
                continue
            url = path.replace("{plugin_id}", "clock").replace("{", "").replace("}", "")
            answer = web.client.open(url, method=method.upper(),
                                     json=None if method == "get" else {})
            sent += 1
            problem = mismatch(operation, answer)
            if problem:
                wrong[f"{method.upper()} {path}"] = problem
    assert sent > 100
    assert not wrong, wrong


# Requests that succeed, in order (the app installed is changed, then removed), so the
# described success ``data`` of the routes that change something is checked too.
DONE = [
    ("POST", "/api/v3/notify", {"text": "hello"}, 202),
    ("POST", "/api/v3/plugins/toggle", {"plugin_id": "clock", "enabled": True}, 200),
    ("POST", "/api/v3/plugins/config", {"plugin_id": "clock", "config": {"interval": 5}}, 200),
    ("POST", "/api/v3/config/main", {"brightness": 50}, 200),
    ("POST", "/api/v3/config/schedule", {"enabled": True}, 200),
    ("POST", "/api/v3/config/dim-schedule", {"dim_brightness": 20}, 200),
    ("POST", "/api/v3/mqtt", {"port": 1884}, 200),
    ("POST", "/api/v3/display/on-demand/start", {"plugin_id": "clock"}, 202),
    ("POST", "/api/v3/display/power", {"on": False}, 202),
    ("POST", "/api/v3/errors/clear", {}, 202),
    ("DELETE", "/api/v3/custom/hello", None, 202),
    ("POST", "/api/v3/starlark/apps",
     {"app_id": "hello", "source": "def main(config):\n    return None\n"}, 201),
    ("PATCH", "/api/v3/starlark/apps/hello", {"enabled": False, "duration": 30}, 200),
    ("DELETE", "/api/v3/starlark/apps/hello", None, 200),
    ("POST", "/api/v3/cache/clear", {}, 200),
]


def test_answers_of_done_changes_are_as_described(web: Any) -> None:
    doc = description(web.app)
    for method, path, body, status in DONE:
        answer = web.client.open(path, method=method, json=body)
        assert answer.status_code == status, (method, path, answer.get_json())
        rule = path.replace("/hello", "/{name}") if "/custom/" in path else path
        rule = rule.replace("/apps/hello", "/apps/{app_id}")
        assert mismatch(doc["paths"][rule][method.lower()], answer) is None, (method, path)


# Refusals the docs once missed (found by comparing answers with the description).
REFUSED = [
    ("POST", "/api/v3/config/raw/main", "/api/v3/config/raw/main", {"a/b": {}},
     "INVALID_PLUGIN_ID"),
    ("POST", "/api/v3/starlark/apps/nothing", "/api/v3/starlark/apps/{app_id}",
     {"enabled": True}, "APP_NOT_FOUND"),
    ("POST", "/api/v3/starlark/repository/install", "/api/v3/starlark/repository/install",
     {}, "MISSING_PLUGIN_ID"),
]


def test_refusals_are_as_described(web: Any) -> None:
    doc = description(web.app)
    for method, url, path, body, code in REFUSED:
        answer = web.client.open(url, method=method, json=body)
        assert answer.get_json()["error_code"] == code, (url, answer.get_json())
        assert mismatch(doc["paths"][path][method.lower()], answer) is None, (method, url)
