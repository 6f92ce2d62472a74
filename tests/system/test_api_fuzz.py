"""schemathesis against the live web daemon, with the display running: the API as described.

Every operation of the served OpenAPI description (``GET /api/v3/openapi.json``) gets a
bounded number of generated requests, valid and invalid. Each answer must be below 500
and match what the description says for its route (status code, content type, body
schema); a refused request (4xx) must leave config.json and the secrets file as they were;
at the end both daemons still answer (health, status, the display's own state).

One test, not one per operation: the daemons are started once and the operations run in
order in one process, whatever pytest-xdist does with the rest of the suite.

``LEDPANEL_FUZZ_EXAMPLES`` sets the examples per operation (``DEFAULT_EXAMPLES`` here,
for CI's time budget); a release runs more (docs/API.md, "The reference page and fuzzing").
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import checks as st_checks
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi import checks as openapi_checks

from tests.daemons import Daemon, Instance, running
from tests.system.test_no_lost_changes import make_instance, running_state
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.wifi.wifi_helpers import use_fake_nmcli

pytestmark = [pytest.mark.daemons, pytest.mark.timeout(900)]

DEFAULT_EXAMPLES = 25  # about 50 s alone on 2 cores; 100 take about 3 minutes
EXAMPLES = int(os.environ.get("LEDPANEL_FUZZ_EXAMPLES", DEFAULT_EXAMPLES))
REQUEST_TIMEOUT = 30.0
API = "/api/v3"

# Operations left out, with why. Each would stop or replace what the run checks; each has
# its own tests with fakes (tests/browser/test_system_buttons.py, tests/web_service/backup/,
# tests/web_service/system/).
EXCLUDED: dict[tuple[str, str], str] = {
    ("POST", "/api/v3/system/action"): "restarts or stops the daemons under test, reboots",
    ("POST", "/api/v3/system/update"): "updates this checkout with git, restarts the daemons",
    ("POST", "/api/v3/backup/restore"): "replaces the whole config (a save, not a refusal)",
}

# What each answer is checked for: no server error, and the answer as described.
CHECKS = [st_checks.not_a_server_error, openapi_checks.status_code_conformance,
          openapi_checks.content_type_conformance,
          openapi_checks.response_schema_conformance]
# Operations whose answers the description does not match yet (what the runs found, for
# the description to close): still fuzzed for server errors and refused changes; their
# mismatches are set aside, and a gap that no longer shows fails the run (remove it).
# Each: why, and the examples per operation at which a run shows it.
KNOWN_GAPS: dict[str, tuple[str, int]] = {}


@dataclass
class Live:
    """The running daemons and what the run found."""

    instance: Instance
    display: Daemon
    web: Daemon
    url: str
    failures: dict[str, list[str]] = field(default_factory=dict)
    answered: dict[str, set[int]] = field(default_factory=dict)
    routed: set[str] = field(default_factory=set)
    gaps_seen: dict[str, list[str]] = field(default_factory=dict)


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Live]:
    """Both daemons over a test instance: the store's host on loopback (an empty registry,
    an apps repository with no apps) and nmcli faked on PATH, so Wi-Fi routes answer as
    on a Pi and change nothing real."""
    use_fake_nmcli(tmp_path, monkeypatch)
    instance = make_instance(tmp_path / "instance")
    with RepoHost() as host:
        host.serve("plugins.json", {"version": "1.0.0", "plugins": []})
        host.push("tronbyt", "apps", {"README.md": b"no apps yet"})  # the apps repository
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/plugins.json")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        monkeypatch.setenv("LEDPANEL_STORE_ALLOW_HOSTS", host.url.split("//", 1)[1])
        config = json.loads((instance.config_dir / "config.json").read_text())
        config["starlark-apps"] = {"repository": host.repo_url("tronbyt", "apps")}
        instance.write_config(config)
        with running(instance) as (display, web, url):
            running_state(instance, display)
            yield Live(instance, display, web, url)


def config_files(instance: Instance) -> dict[str, str | None]:
    """The digest of config.json and of the secrets file (None when absent)."""
    found: dict[str, str | None] = {}
    for name in ("config.json", "config_secrets.json"):
        path = instance.config_dir / name
        found[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    return found


def operation_runner(live: Live, label: str,
                     session: requests.Session) -> Callable[[Any], None]:
    """Return the body run for each generated case of one operation."""

    def run(case: Any) -> None:
        before = config_files(live.instance)
        response = case.call(session=session, timeout=REQUEST_TIMEOUT)
        live.answered.setdefault(label, set()).add(response.status_code)
        if not _unrouted(response):
            live.routed.add(label)
        try:
            case.validate_response(response, checks=CHECKS[:1])  # no server error
        except (AssertionError, FailureGroup) as err:
            live.failures.setdefault(label, []).append(_short(case, response, err))
            return
        try:
            case.validate_response(response, checks=CHECKS[1:])  # the answer as described
        except (AssertionError, FailureGroup) as err:  # one failed check, or several
            found = live.gaps_seen if label in KNOWN_GAPS else live.failures
            found.setdefault(label, []).append(_short(case, response, err))
            return
        if 400 <= response.status_code < 500 and config_files(live.instance) != before:
            live.failures.setdefault(label, []).append(
                f"refused with {response.status_code} but the config changed: "
                f"{case.method} {case.formatted_path} {case.body!r:.200}")

    return run


def _unrouted(response: requests.Response) -> bool:
    """Whether the server had no such route (or method): Werkzeug's own 404 or 405."""
    if response.status_code not in (404, 405):
        return False
    try:
        message = str(response.json().get("message", ""))
    except ValueError:
        return True
    return message.startswith(("The requested URL was not found", "The method is not allowed"))


def _short(case: Any, response: requests.Response,
           err: AssertionError | FailureGroup) -> str:
    found = err.exceptions if isinstance(err, FailureGroup) else (err,)
    first = [line for one in found for line in str(one).strip().splitlines()[:4] if line]
    return (f"{case.method} {case.formatted_path} -> {response.status_code}: "
            f"{' | '.join(first)}"[:900])


def fuzz_operation(live: Live, operation: Any) -> None:
    """Run the generated cases of one operation, recording failures on ``live``."""
    label = label_of(operation)
    # Closed after the operation: sessions left to the collector kept their connections
    # open, and the web's per-address cap (24, connection_guard) then closed new ones.
    session = requests.Session()
    run = operation_runner(live, label, session)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def each(case: Any) -> None:
        run(case)

    try:
        each()
    finally:
        session.close()


def load_description(url: str) -> Any:
    """The served description as schemathesis reads it."""
    return schemathesis.openapi.from_url(f"{url}/api/v3/openapi.json")


def label_of(operation: Any) -> str:
    """``METHOD /full/path``, whether the description's paths carry the ``/api/v3``
    prefix or its server URL does (routes outside it, such as ``/metrics``, keep theirs)."""
    path = operation.full_path
    return f"{operation.method.upper()} {path.rstrip('/') or path}"


def operations(schema: Any) -> Iterator[Any]:
    """Every described operation not in ``EXCLUDED``."""
    for result in schema.get_all_operations():
        operation = result.ok()
        if tuple(label_of(operation).split(" ", 1)) not in EXCLUDED:
            yield operation


def assert_still_healthy(live: Live) -> None:
    """Both daemons still run and answer: health, status, and the display taking a
    request (panel on) and acknowledging it."""
    assert live.web.process.poll() is None and live.display.process.poll() is None
    for path in ("/api/v3/health", "/api/v3/system/status"):
        answer = requests.get(f"{live.url}{path}", timeout=REQUEST_TIMEOUT)
        assert answer.status_code == 200, (path, answer.text[:300])
    # The run may have turned the panel off by hand or left notifications showing (both
    # requests it may make): "panel on" is answered by the display whatever it shows.
    answer = requests.post(f"{live.url}{API}/display/power", json={"on": True},
                           timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 200 and answer.json()["data"]["state"] == "done", answer.text


def test_fuzzing_every_described_operation_finds_no_server_error_and_no_refused_change(
        live: Live) -> None:
    schema = load_description(live.url)
    ran = []
    for operation in operations(schema):
        fuzz_operation(live, operation)
        ran.append(label_of(operation))
    # The requests reached the routes: no operation is answered only "no such route".
    unrouted = [label for label in ran if label not in live.routed]
    assert ran and unrouted == [], unrouted
    problems = [f"{label}: {line}" for label, lines in sorted(live.failures.items())
                for line in lines[:3]]
    assert problems == [], "\n".join(problems)
    closed = sorted(label for label, (_why, shown_at) in KNOWN_GAPS.items()
                    if shown_at <= EXAMPLES and label not in live.gaps_seen)
    assert closed == [], f"the description matches these now; remove from KNOWN_GAPS: {closed}"
    assert_still_healthy(live)
    print(f"fuzzed {len(ran)} operations, {EXAMPLES} examples each; known gaps of the "
          f"description: {live.gaps_seen}")


def test_excluded_operations_are_described_routes() -> None:
    """An exclusion names a real route, so a renamed route is fuzzed rather than skipped."""
    api = Path(__file__).resolve().parents[2] / "docs" / "API.md"
    headings = set(re.findall(r"^### `(\w+) (/api/v3[^`?]*)", api.read_text(), re.M))
    for method, path in EXCLUDED:
        assert (method, path) in headings, (method, path)
    for label in KNOWN_GAPS:
        method, path = label.split(" ", 1)
        assert (method, re.sub(r"\{(\w+)\}", r"<\1>", path)) in headings, label
