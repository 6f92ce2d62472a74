"""Install a plugin's requirements.txt with pip in a subprocess, bounded in time.

The command is ``[python, "-m", "pip", "install", "--disable-pip-version-check", "-r",
file]`` in its own process group; on timeout the whole group is killed. pip's output is
logged, and its last lines are in the error when it fails.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
from pathlib import Path

from shared.store.errors import StoreError

logger = logging.getLogger(__name__)

TAIL_LINES = 15


def install_requirements(plugin_id: str, file: Path, *, python: str, timeout: float) -> None:
    """Run pip on ``file``; raise StoreError(DEPENDENCIES_FAILED) with pip's last lines."""
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "-r", str(file)]
    logger.info("%s: installing requirements: %s", plugin_id, " ".join(command))
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=file.parent, env=env,
                                start_new_session=True)
    except OSError as err:
        raise StoreError(f"{plugin_id}: pip could not start: {err}",
                         "DEPENDENCIES_FAILED") from err
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        output, _ = proc.communicate()
        tail = _tail(output)
        logger.error("%s: pip took longer than %s s; stopped:\n%s", plugin_id, timeout, tail)
        raise StoreError(f"{plugin_id}: installing requirements took longer than {timeout} s",
                         "DEPENDENCIES_FAILED", details={"output": tail}) from None
    tail = _tail(output)
    if proc.returncode != 0:
        logger.error("%s: pip failed (exit %s):\n%s", plugin_id, proc.returncode, tail)
        raise StoreError(f"{plugin_id}: installing requirements failed: {tail}",
                         "DEPENDENCIES_FAILED", details={"output": tail})
    logger.info("%s: requirements installed:\n%s", plugin_id, tail)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _tail(output: bytes | None) -> str:
    lines = (output or b"").decode("utf-8", "replace").strip().splitlines()
    return "\n".join(lines[-TAIL_LINES:])
