"""POST /api/v3/plugins/action runs a manifest's web-UI action script as a child process."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.conftest import write_plugin

ESCAPE = """import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open('escaped.pid.tmp', 'w') as out:
            out.write(str(os.getpid()))
        os.rename('escaped.pid.tmp', 'escaped.pid')
        time.sleep(60)
    os._exit(0)
os.wait()
for _ in range(200):
    if os.path.exists('escaped.pid'):
        break
    time.sleep(0.01)
"""

SCRIPTS = {
    "echo": "import json, os, sys\nparams = json.load(sys.stdin)\n"
            "print(json.dumps({'status': 'success', 'message': 'echoed', 'params': params,"
            " 'cwd': os.getcwd()}))\n",
    "noisy": "import sys\nsys.stderr.write('working on it\\n' * 3)\nprint('{\"ok\": true}')\n",
    "fails": "import sys\nsys.stderr.write('boom happened\\n')\nsys.exit(3)\n",
    "garbage": "print('this is not json')\n",
    "list": "print('[1, 2]')\n",
    "flood": "import sys\nsys.stdout.write('x' * 300000)\nsys.stdout.flush()\n"
             "import time\ntime.sleep(30)\n",
    "hang": "import os, time\nopen('hang.pid', 'w').write(str(os.getpid()))\ntime.sleep(60)\n",
    "deaf": "print('{\"ignored\": \"stdin\"}')\n",
    # Answers and exits at once, but leaves a child holding its stdout and stderr open.
    "leaves-child": "import subprocess, sys\n"
                    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
                    "print('{\"status\": \"done\"}', flush=True)\n",
    # Starts a process that leaves the session and whose parent exits at once (a double
    # fork), so neither the script's process group nor its parent holds it; then either
    # answers and exits, or hangs past the timeout.
    "escapes": ESCAPE + "print('{\"status\": \"left one behind\"}', flush=True)\n",
    "escapes-and-hangs": ESCAPE + "import time\ntime.sleep(60)\n",
}


def add_actions(plugin_dir: Path, actions: list[dict]) -> None:
    manifest = json.loads((plugin_dir / "manifest.json").read_text())
    manifest["web_ui_actions"] = actions
    (plugin_dir / "manifest.json").write_text(json.dumps(manifest))


@pytest.fixture
def actions_web(web):
    plugin_dir = web.paths.plugins_dir() / "clock"
    (plugin_dir / "scripts").mkdir()
    for name, text in SCRIPTS.items():
        (plugin_dir / "scripts" / f"{name}.py").write_text(text)
    add_actions(plugin_dir, [
        {"id": name, "type": "script", "script": f"scripts/{name}.py",
         "success_message": "{never_read}", "error_message": "{never_read}",
         "step1_message": "{never_read}"} for name in SCRIPTS])
    web.app.config["PLUGIN_ACTION_TIMEOUT"] = 2
    web.app.config["PLUGIN_ACTION_OUTPUT_LIMIT"] = 100000
    web.plugin_dir = plugin_dir
    return web


def act(web, action_id, params=None, plugin_id="clock"):
    body = {"plugin_id": plugin_id, "action_id": action_id}
    if params is not None:
        body["params"] = params
    return web.client.post("/api/v3/plugins/action", json=body)


def test_script_gets_params_on_stdin_runs_in_plugin_dir_and_answer_is_data(actions_web):
    answer = act(actions_web, "echo", {"calendar": "home", "n": 2})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "success" and body["message"] == "echoed"
    assert body["data"]["params"] == {"calendar": "home", "n": 2}
    assert Path(body["data"]["cwd"]).resolve() == actions_web.plugin_dir.resolve()


def test_params_default_to_an_empty_object_and_must_be_an_object(actions_web):
    assert act(actions_web, "echo").get_json()["data"]["params"] == {}
    refused = act(actions_web, "echo", [1, 2])
    assert refused.status_code == 400 and refused.get_json()["error_code"] == "INVALID_FIELD"


def test_script_that_ignores_stdin_still_answers(actions_web):
    assert act(actions_web, "deaf", {"big": "y" * 200000}).get_json()["data"] == {
        "ignored": "stdin"}


def test_stderr_goes_to_the_log_with_the_plugin_id(actions_web, caplog):
    with caplog.at_level("WARNING"):
        assert act(actions_web, "noisy").get_json()["data"] == {"ok": True}
    assert any(r.getMessage().startswith("clock: action script noisy.py stderr")
               and "working on it" in r.getMessage() for r in caplog.records)


def test_failing_script_is_one_clear_error_with_its_stderr_logged(actions_web, caplog):
    with caplog.at_level("WARNING"):
        answer = act(actions_web, "fails")
    body = answer.get_json()
    assert answer.status_code == 502 and body["error_code"] == "ACTION_FAILED"
    assert "exited with status 3" in body["message"] and "Traceback" not in answer.text
    assert any("boom happened" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("action_id", ["garbage", "list"])
def test_output_that_is_not_one_json_object_is_refused(actions_web, action_id):
    answer = act(actions_web, action_id)
    assert answer.status_code == 502 and answer.get_json()["error_code"] == "ACTION_FAILED"


def test_output_past_the_limit_stops_the_script(actions_web):
    started = time.monotonic()
    answer = act(actions_web, "flood")
    assert answer.status_code == 502 and "more than 100000 bytes" in answer.get_json()["message"]
    assert time.monotonic() - started < 2


def test_script_past_the_timeout_is_killed(actions_web):
    started = time.monotonic()
    answer = act(actions_web, "hang")
    assert answer.status_code == 504 and answer.get_json()["error_code"] == "ACTION_TIMEOUT"
    assert time.monotonic() - started < 5
    pid = int((actions_web.plugin_dir / "hang.pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize("body, code", [
    ({"plugin_id": "clock", "action_id": "nope"}, "UNKNOWN_ACTION"),
    ({"plugin_id": "clock"}, "UNKNOWN_ACTION"),
    ({"plugin_id": "ticker", "action_id": "echo"}, "UNKNOWN_ACTION"),
    ({"plugin_id": "absent", "action_id": "echo"}, "UNKNOWN_PLUGIN"),
    ({"action_id": "echo"}, "MISSING_PLUGIN_ID"),
    ({"plugin_id": "../clock", "action_id": "echo"}, "INVALID_PLUGIN_ID"),
])
def test_unknown_plugin_or_action_answers_400(actions_web, body, code):
    answer = actions_web.client.post("/api/v3/plugins/action", json=body)
    assert answer.status_code == 400 and answer.get_json()["error_code"] == code


def test_non_script_action_is_refused(actions_web):
    add_actions(actions_web.plugin_dir, [{"id": "url", "type": "url", "url": "http://x"}])
    answer = act(actions_web, "url")
    assert answer.status_code == 400 and answer.get_json()["error_code"] == "UNKNOWN_ACTION"


def test_a_script_imports_the_plugins_own_dependencies(actions_web):
    deps = actions_web.plugin_dir / ".ledpanel-deps"
    deps.mkdir()
    (deps / "ledpanel_action_dep.py").write_text("VALUE = 'from the plugin folder'\n")
    (actions_web.plugin_dir / "scripts" / "uses-dep.py").write_text(
        "import json, ledpanel_action_dep\n"
        "print(json.dumps({'value': ledpanel_action_dep.VALUE}))\n")
    add_actions(actions_web.plugin_dir, [{"id": "uses-dep", "type": "script",
                                          "script": "scripts/uses-dep.py"}])
    answer = act(actions_web, "uses-dep")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"value": "from the plugin folder"}
    assert "ledpanel_action_dep" not in sys.modules


def test_action_runs_through_the_real_web_daemon(tmp_path):
    instance = Instance(tmp_path)
    plugin_dir = write_plugin(instance.plugins_dir, "clock")
    (plugin_dir / "scripts").mkdir()
    (plugin_dir / "scripts" / "echo.py").write_text(SCRIPTS["echo"])
    add_actions(plugin_dir, [{"id": "echo", "type": "script", "script": "scripts/echo.py"}])
    web, url = start_web(instance)
    try:
        answer = requests.post(f"{url}/api/v3/plugins/action", timeout=30, json={
            "plugin_id": "clock", "action_id": "echo", "params": {"x": 1}})
    finally:
        web.stop()
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["params"] == {"x": 1}



def test_an_interpreter_that_cannot_start_is_one_clear_error(actions_web, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    answer = act(actions_web, "echo")
    body = answer.get_json()
    assert answer.status_code == 502 and body["error_code"] == "ACTION_FAILED"
    assert "could not be started" in body["message"]


def test_a_script_that_exits_is_answered_though_a_child_keeps_its_pipes(actions_web):
    started = time.monotonic()
    answer = act(actions_web, "leaves-child")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"status": "done"}
    assert time.monotonic() - started < 1.5  # not the 2 s timeout


def gone(pid: int) -> bool:
    """True once ``pid`` no longer runs: gone, or a zombie (dead, not yet reaped by init)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("action_id, status", [("escapes", 200), ("escapes-and-hangs", 504)])
def test_a_process_that_left_the_session_is_killed_too(actions_web, action_id, status):
    answer = act(actions_web, action_id)
    assert answer.status_code == status, answer.get_json()
    pid = int((actions_web.plugin_dir / "escaped.pid").read_text())
    deadline = time.monotonic() + 2
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gone(pid), f"the escaped process {pid} still runs"


def test_one_action_per_plugin_and_two_in_all_run_at_once(actions_web):
    from shared.plugin_system import actions

    with actions.running_slot("clock"):
        busy = act(actions_web, "echo", {})
        assert busy.status_code == 429
        assert busy.get_json()["error_code"] == "ACTION_BUSY"
        assert "still running" in busy.get_json()["message"]
    with actions.running_slot("weather"), actions.running_slot("news"):
        full = act(actions_web, "echo", {})
        assert full.status_code == 429 and "2 actions are running" in full.get_json()["message"]
    assert act(actions_web, "echo", {}).status_code == 200  # the slots were given back
