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
