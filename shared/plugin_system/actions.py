"""A plugin's web-UI actions: find the manifest's script, run it, read its one answer.

The script is plugin code, so it never runs inside a daemon: it runs as a child process
of the project's Python, from the plugin's directory, below a small launcher
(``action_launcher.py``) in its own process group. The launcher adopts whatever the
script starts, even a process that left the session and lost its parent, and kills it
all when the script exits or the launcher is stopped (timeout, too much output).
``params`` go in as one JSON object on standard input; one JSON object is read from
standard output. Output is bounded, the script's standard error goes to the log
(bounded, plugin id first), and every failure is one ``ActionError`` with an error code.
The manifest's message fields (``success_message``, ``error_message``,
``step1_message``) are never read. The plugin's own dependency folder (what the store
installed from its requirements.txt, ``dependencies``) is on the script's
``PYTHONPATH``: the script is the plugin's code, in its own process, so its packages
are there for it and still never in the daemon that started it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from shared.errors import LedpanelError, ValidationError
from shared.files.jsontext import parse_strict
from shared.plugin_system.dependencies import deps_dir
from shared.plugin_system.manifest import load_manifest

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 30.0
OUTPUT_LIMIT = 1024 * 1024  # bytes of standard output accepted
POLL_EVERY = 0.1  # how often a running script is checked for having exited
EXIT_GRACE = 0.5  # output still read after the script exited (its children keep pipes)
STDERR_LOG_LIMIT = 4096  # bytes of standard error kept for the log
LAUNCHER = Path(__file__).with_name("action_launcher.py")
SWEEP_WAIT = 3.0  # seconds the launcher gets to kill what is below it, before SIGKILL


class ActionError(LedpanelError):
    """An action script failed: non-zero exit, no JSON object, too much output."""

    error_code = "ACTION_FAILED"
    status = 502


class ActionBusy(LedpanelError):
    """Too many action scripts are running: this one was not started."""

    error_code = "ACTION_BUSY"
    status = 429


# At most this many scripts at once (one per plugin): each holds a web worker thread,
# and the web service has eight; hanging scripts must not take them all.
MAX_RUNNING = 2
_running_lock = threading.Lock()
_running: set[str] = set()


@contextlib.contextmanager
def running_slot(plugin_id: str) -> Iterator[None]:
    """Hold one of the ``MAX_RUNNING`` action slots for ``plugin_id``; raise ActionBusy."""
    with _running_lock:
        if plugin_id in _running or len(_running) >= MAX_RUNNING:
            busy = ("an action of this plugin is still running" if plugin_id in _running
                    else f"{MAX_RUNNING} actions are running already")
            raise ActionBusy(f"{plugin_id}: {busy}; try again when it has finished")
        _running.add(plugin_id)
    try:
        yield
    finally:
        with _running_lock:
            _running.discard(plugin_id)


class ActionTimeout(ActionError):
    """An action script did not finish in time and was killed."""

    error_code = "ACTION_TIMEOUT"
    status = 504


def find_action_script(plugin_dir: Path, action_id: Any) -> Path:
    """Return the resolved script of the manifest's ``web_ui_actions`` entry ``action_id``.

    Raises ValidationError (400) for an unknown action, one that is not a script, and a
    script path that is absolute, holds ``..`` or resolves (symlinks followed) outside
    the plugin directory.
    """
    if not isinstance(action_id, str) or not action_id:
        raise ValidationError("action_id is required", error_code="UNKNOWN_ACTION",
                              details={"field": "action_id"})
    actions = load_manifest(plugin_dir).get("web_ui_actions")
    entry = next((a for a in actions if isinstance(a, dict) and a.get("id") == action_id),
                 None) if isinstance(actions, list) else None
    if entry is None:
        raise ValidationError(f"the plugin has no web UI action {action_id!r}",
                              error_code="UNKNOWN_ACTION", details={"field": "action_id"})
    if entry.get("type", "script") != "script" or not isinstance(entry.get("script"), str):
        raise ValidationError(f"web UI action {action_id!r} is not a script action",
                              error_code="UNKNOWN_ACTION", details={"field": "action_id"})
    return contained_script(plugin_dir, entry["script"])


def contained_script(plugin_dir: Path, script: str) -> Path:
    """Return ``plugin_dir/script`` resolved, refusing (400) any path that leaves it."""
    relative = PurePosixPath(script)
    if (not script or "\x00" in script or "\\" in script or relative.is_absolute()
            or ".." in relative.parts):
        raise _unsafe(script)
    base = plugin_dir.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base) or target == base:
        raise _unsafe(script)
    if not target.is_file():
        raise ValidationError(f"action script {script!r} is not a file in the plugin",
                              error_code="UNKNOWN_ACTION", details={"script": script})
    return target


def run_action(plugin_id: str, plugin_dir: Path, script: Path, params: dict[str, Any], *,
               timeout: float = TIMEOUT_SECONDS, limit: int = OUTPUT_LIMIT) -> dict[str, Any]:
    """Run ``script`` with ``params`` on stdin; return the JSON object it printed."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(  # noqa: S603 - the interpreter and a contained path only
            [sys.executable, "-I", str(LAUNCHER), str(script)], cwd=plugin_dir,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, env=_script_env(plugin_dir))
    except OSError as error:
        raise ActionError(f"{plugin_id}: action script {script.name} could not be started: "
                          f"{error.strerror or error}") from error
    try:
        out, err, why = _exchange(proc, json.dumps(params).encode(), timeout, limit)
    finally:
        _kill_group(proc)
    code = proc.wait()
    if err:
        text = err[:STDERR_LOG_LIMIT].decode("utf-8", "replace")
        logger.warning("%s: action script %s stderr: %r", plugin_id, script.name, text)
    if why == "timeout":
        raise ActionTimeout(f"{plugin_id}: action script {script.name} did not finish "
                            f"within {timeout:g} s and was stopped")
    if why == "overflow":
        raise ActionError(f"{plugin_id}: action script {script.name} printed more than "
                          f"{limit} bytes")
    if code != 0:
        raise ActionError(f"{plugin_id}: action script {script.name} exited with status "
                          f"{code}", details={"exit_status": code})
    logger.info("%s: action script %s finished in %.2f s", plugin_id, script.name,
                time.monotonic() - started)
    return _one_object(out, plugin_id, script.name)


def _script_env(plugin_dir: Path) -> dict[str, str]:
    """The daemon's environment with the plugin's dependency folder (when it has a real
    one) last on ``PYTHONPATH``; the launcher itself runs isolated (``-I``) of it."""
    env = dict(os.environ)
    deps = deps_dir(plugin_dir)
    if deps.is_dir() and not deps.is_symlink():
        env["PYTHONPATH"] = os.pathsep.join(
            [*filter(None, [env.get("PYTHONPATH")]), str(deps)])
    return env


def _exchange(proc: subprocess.Popen[bytes], data: bytes, timeout: float,
              limit: int) -> tuple[bytes, bytes, str | None]:
    """Feed stdin and collect stdout/stderr until both close, the deadline or the limit."""
    assert proc.stdin and proc.stdout and proc.stderr
    deadline = time.monotonic() + timeout
    out, err = bytearray(), bytearray()
    with selectors.DefaultSelector() as sel:
        if data:
            os.set_blocking(proc.stdin.fileno(), False)
            sel.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        sel.register(proc.stdout, selectors.EVENT_READ, out)
        sel.register(proc.stderr, selectors.EVENT_READ, err)
        view = memoryview(data)
        exited_at: float | None = None
        while sel.get_map():  # bounded: ends at both EOFs, the deadline or the limit
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now  # something it started may hold the pipes open
            if exited_at is not None and now - exited_at > EXIT_GRACE:
                break
            left = deadline - now
            if left <= 0:
                return bytes(out), bytes(err), "timeout"
            for key, _ in sel.select(min(left, POLL_EVERY)):
                if key.fileobj is proc.stdin:
                    try:
                        sent = os.write(proc.stdin.fileno(), view[:65536])
                    except BlockingIOError:
                        sent = 0
                    except BrokenPipeError:  # the script does not read its params
                        sent = len(view)
                    view = view[sent:]
                    if not view:
                        sel.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                key.data.extend(chunk)
                if len(out) > limit:
                    return bytes(out), bytes(err), "overflow"
                del err[STDERR_LOG_LIMIT:]  # the log keeps the head; the rest is dropped
    return bytes(out), bytes(err), None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the script and everything it started; close our ends of its pipes.

    The launcher, asked first, kills what is below it (escaped processes included);
    then its process group is killed outright in case the launcher itself is stuck.
    """
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(SWEEP_WAIT)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _one_object(out: bytes, plugin_id: str, name: str) -> dict[str, Any]:
    try:
        answer = parse_strict(out.decode("utf-8"))
    except ValueError as err:  # not UTF-8, not JSON, or outside shared.files.jsontext's limits
        raise ActionError(f"{plugin_id}: action script {name} did not print one JSON "
                          f"object: {err}") from None
    if not isinstance(answer, dict):
        raise ActionError(f"{plugin_id}: action script {name} printed JSON that is not "
                          "an object")
    return answer


def _unsafe(script: str) -> ValidationError:
    return ValidationError(f"action script path {script!r} leaves the plugin directory",
                           error_code="INVALID_PATH", details={"script": script})
