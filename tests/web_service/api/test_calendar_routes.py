"""GET /api/v3/calendar/list-calendars runs the calendar plugin's list-calendars action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.api.test_plugin_actions import add_actions
from tests.web_service.conftest import write_plugin

URL = "/api/v3/calendar/list-calendars"
SECRET = "TOP-SECRET-OUTSIDE"
# Reads the account's calendars from a file beside it (the real plugin asks Google), so
# the answer also proves the script ran from the plugin folder with its params on stdin.
LISTER = """import json, sys
params = json.load(sys.stdin)
with open('calendars.json') as source:
    calendars = json.load(source)
print(json.dumps({'status': 'success', 'calendars': calendars, 'params': params}))
"""
CALENDARS = [
    {"id": "team@group.calendar.google.com", "summary": "team", "primary": False},
    {"id": "me@example.com", "summary": "Me", "primary": True, "accessRole": "owner"},
    {"id": "holidays@example.com", "summary": "", "primary": "yes"},
    {"summary": "no id: nothing to pick"},
    "not an object",
    {"id": "Birthdays", "summary": "Birthdays"},
]


def write_calendar(plugins_dir: Path, plugin_id: str = "calendar", *,
                   script: str = LISTER, calendars: object = CALENDARS) -> Path:
    """A calendar plugin with a real list-calendars script (and the community auth action)."""
    directory = write_plugin(plugins_dir, plugin_id)
    (directory / "scripts").mkdir()
    (directory / "scripts" / "list_calendars.py").write_text(script)
    (directory / "calendars.json").write_text(json.dumps(calendars))
    add_actions(directory, [
        {"id": "authenticate-google", "type": "script", "script": "calendar_registration.py"},
        {"id": "list-calendars", "type": "script", "script": "scripts/list_calendars.py"}])
    return directory


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside every plugin folder: a secret and a script that leaves a mark."""
    directory = tmp_path / "outside"
    directory.mkdir()
    (directory / "secret.txt").write_text(SECRET)
    (directory / "evil.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('RAN').write_text('x')\n"
        "print('{\"calendars\": [{\"id\": \"" + SECRET + "\"}]}')\n")
    return directory


def untouched(directory: Path) -> None:
    assert sorted(p.name for p in directory.iterdir()) == ["evil.py", "secret.txt"]
    assert (directory / "secret.txt").read_text() == SECRET


def test_calendars_come_from_the_plugin_script_primary_first(web):
    write_calendar(web.paths.plugins_dir())
    answer = web.client.get(URL)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["data"] == {"plugin_id": "calendar", "calendars": [
        {"id": "me@example.com", "summary": "Me", "primary": True},
        {"id": "Birthdays", "summary": "Birthdays", "primary": False},
        {"id": "holidays@example.com", "summary": "holidays@example.com", "primary": False},
        {"id": "team@group.calendar.google.com", "summary": "team", "primary": False}]}
    assert body["message"] == "4 calendar(s)"


def test_another_calendar_plugin_is_named_by_plugin_id(web):
    write_calendar(web.paths.plugins_dir(), "work-calendar", calendars=[{"id": "w"}])
    answer = web.client.get(URL, query_string={"plugin_id": "work-calendar"})
    assert answer.get_json()["data"] == {"plugin_id": "work-calendar", "calendars": [
        {"id": "w", "summary": "w", "primary": False}]}


def test_over_real_http_the_daemon_runs_the_script_in_the_plugin_folder(tmp_path):
    instance = Instance(tmp_path)
    script = LISTER.replace("'params': params", "'params': params, 'cwd': __import__('os')"
                                                ".getcwd()")
    directory = write_calendar(instance.plugins_dir, script=script,
                               calendars=[{"id": "me", "summary": "Me", "primary": True}])
    daemon, url = start_web(instance)
    try:
        answer = requests.get(f"{url}{URL}", timeout=30)
        unknown = requests.get(f"{url}{URL}?plugin_id=..%2Fcalendar", timeout=10)
    finally:
        daemon.stop()
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["calendars"] == [{"id": "me", "summary": "Me",
                                                   "primary": True}]
    assert "cwd" not in answer.json()["data"]  # only the calendars reach the client
    assert unknown.status_code == 400 and unknown.json()["error_code"] == "INVALID_PLUGIN_ID"
    assert directory.is_dir()


def test_a_missing_calendar_plugin_is_a_404_envelope(web):
    answer = web.client.get(URL)
    assert answer.status_code == 404
    body = answer.get_json()
    assert body["error_code"] == "UNKNOWN_PLUGIN" and "not installed" in body["message"]
    other = web.client.get(URL, query_string={"plugin_id": "nowhere"})
    assert other.status_code == 404 and "'nowhere'" in other.get_json()["message"]


def test_a_plugin_without_a_list_action_says_it_provides_no_list(web):
    # The community Google Calendar plugin declares only its authentication action.
    directory = write_plugin(web.paths.plugins_dir(), "calendar")
    add_actions(directory, [{"id": "authenticate-google", "type": "script",
                             "script": "calendar_registration.py"}])
    answer = web.client.get(URL)
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["error_code"] == "NO_CALENDAR_LIST"
    assert "list-calendars" in body["message"] and "docs/PLUGINS.md" in body["message"]
    (directory / "manifest.json").write_text(json.dumps(
        {**json.loads((directory / "manifest.json").read_text()), "web_ui_actions": [
            {"id": "list-calendars", "type": "script", "script": "scripts/missing.py"}]}))
    assert web.client.get(URL).get_json()["error_code"] == "NO_CALENDAR_LIST"
    assert web.client.get(URL, query_string={"plugin_id": "clock"}).status_code == 409


@pytest.mark.parametrize(("script", "said"), [
    ("print('{\"status\": \"error\", \"message\": \"Not authenticated with Google yet\"}')\n",
     "Not authenticated with Google yet"),
    ("print('{\"status\": \"success\"}')\n", 'printed no "calendars" list'),
    ("print('{\"calendars\": {\"id\": \"x\"}}')\n", 'printed no "calendars" list'),
    ("import sys\nsys.exit(2)\n", "exited with status 2"),
    ("print('not json')\n", "did not print one JSON object"),
])
def test_a_failing_or_wrong_answer_is_an_action_error(web, script, said):
    write_calendar(web.paths.plugins_dir(), script=script)
    answer = web.client.get(URL)
    assert answer.status_code == 502
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "ACTION_FAILED"
    assert said in body["message"]


def test_a_script_that_hangs_is_stopped_at_the_action_timeout(web):
    web.app.config["PLUGIN_ACTION_TIMEOUT"] = 1
    write_calendar(web.paths.plugins_dir(), script="import time\ntime.sleep(30)\n")
    answer = web.client.get(URL)
    assert answer.status_code == 504 and answer.get_json()["error_code"] == "ACTION_TIMEOUT"


@pytest.mark.parametrize("plugin_id", ["..", ".", "../calendar", "calendar/..", "%2e%2e",
                                       "..%2Fcalendar", "/etc", "/tmp/calendar",
                                       "calendar\x00", "a\\b", ".hidden", ""])
def test_a_plugin_id_that_is_not_one_plain_name_is_refused(web, outside, plugin_id):
    write_calendar(web.paths.plugins_dir())
    answer = web.client.get(URL, query_string={"plugin_id": plugin_id})
    assert answer.status_code in (400, 404), answer.get_json()
    body = answer.get_json()
    assert body["error_code"] in ("INVALID_PLUGIN_ID", "MISSING_PLUGIN_ID", "UNKNOWN_PLUGIN")
    assert SECRET not in answer.get_data(as_text=True)
    untouched(outside)


@pytest.mark.parametrize("path", ["/api/v3/calendar/list-calendars?plugin_id=%2e%2e",
                                  "/api/v3/calendar/list-calendars?plugin_id=..%2F..%2Foutside",
                                  "/api/v3/calendar/list-calendars?plugin_id=%2Fetc",
                                  "/api/v3/calendar/list-calendars?plugin_id=calendar%00"])
def test_url_encoded_ids_are_decoded_and_refused(web, outside, path):
    write_calendar(web.paths.plugins_dir())
    answer = web.client.get(path)
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == "INVALID_PLUGIN_ID"
    untouched(outside)


@pytest.mark.parametrize("script", ["../../outside/evil.py", "/OUTSIDE/evil.py",
                                    "scripts/../../../outside/evil.py", "scripts/link.py",
                                    "scripts/dirlink/evil.py", "scripts/a\x00.py"])
def test_a_list_script_outside_the_plugin_is_refused_and_never_run(web, outside, script):
    directory = write_calendar(web.paths.plugins_dir())
    (directory / "scripts" / "link.py").symlink_to(outside / "evil.py")
    (directory / "scripts" / "dirlink").symlink_to(outside)
    add_actions(directory, [{"id": "list-calendars", "type": "script",
                             "script": script.replace("/OUTSIDE", str(outside))}])
    answer = web.client.get(URL)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["error_code"] == "INVALID_PATH"
    assert SECRET not in answer.get_data(as_text=True)
    untouched(outside)


def test_a_symlinked_plugin_folder_runs_only_its_own_script(web, outside, tmp_path):
    # plugins/ holds symlinked plugin folders by design; the script still has to be one
    # of that folder's files, and nothing outside it is run.
    real = write_calendar(tmp_path / "elsewhere")
    (web.paths.plugins_dir() / "calendar").symlink_to(real)
    answer = web.client.get(URL)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"]["calendars"][0]["id"] == "me@example.com"
    untouched(outside)
