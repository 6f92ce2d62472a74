"""What a core update does beyond git: reinstall the dependencies, restart the daemons.

Dependencies: the install's own ``.venv`` python runs ``pip install --editable <root>``
(pyproject.toml) and ``pip install -r`` for each requirements file present, all within
one ``Budget`` (600 s for a pull, a fresh one for a rollback). Restart: under systemd
``systemctl restart`` of both units (the updater runs as root in its own unit, so the
web restarting does not stop it), then ``systemctl try-restart`` of the MQTT bridge
(restarted when it runs; its failure is said, never a failed update); on a development
run (``LEDPANEL_SUPERVISOR=dev``) the supervisor offers no restart to another process
yet, so it is skipped and said so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from shared.core_update.limits import PIP_BUDGET, RESTART_TIMEOUT

UNITS = ("ledpanel-display.service", "ledpanel-web.service")
# Restarted after them only when it runs (try-restart): an install from before the bridge
# has no such unit, and a bridge that fails to restart leaves the panel as it is.
BRIDGE_UNIT = "ledpanel-mqtt.service"
SYSTEMD, DEV = "systemd", "dev"
_OUTPUT_LIMIT = 400


class StepError(Exception):
    """A reinstall or restart failed; the message says which command and why."""


class Budget:
    """Seconds left of one shared time budget."""

    def __init__(self, seconds: float = PIP_BUDGET) -> None:
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())


def supervisor(env: Mapping[str, str] | None = None) -> str:
    """Return ``systemd`` or ``dev``: ``LEDPANEL_SUPERVISOR``, else detected."""
    env = os.environ if env is None else env
    named = env.get("LEDPANEL_SUPERVISOR", "")
    if named in (SYSTEMD, DEV):
        return named
    if env.get("INVOCATION_ID") or Path("/run/systemd/system").is_dir():
        return SYSTEMD
    return DEV


def _run(argv: list[str], timeout: float, cwd: Path) -> None:
    """Run ``argv`` in its own process group; kill the group past ``timeout``."""
    if timeout <= 0:
        raise StepError(f"no time left for {argv[0]}: the shared budget is spent")
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
    except OSError as err:
        raise StepError(f"{argv[0]} could not run: {err.strerror}") from err
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as err:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise StepError(f"{' '.join(argv[:4])} took longer than {timeout:.0f} s; "
                        "stopped") from err
    if proc.returncode != 0:
        text = out.decode("utf-8", "replace").strip()[-_OUTPUT_LIMIT:]
        raise StepError(f"{' '.join(argv[:4])} failed (exit {proc.returncode}): "
                        f"{text or 'no output'}")


def reinstall(root: Path, budget: Budget) -> None:
    """Reinstall the core's dependency files into ``<root>/.venv`` within ``budget``."""
    python = root / ".venv" / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input"]
    _run([*pip, "--editable", str(root)], budget.left(), root)
    for requirements in (root / "requirements.txt", root / "web_service" / "requirements.txt"):
        if requirements.is_file() and not requirements.is_symlink():
            _run([*pip, "-r", str(requirements)], budget.left(), root)


def restart_daemons(kind: str) -> str:
    """Restart both daemons; return what was done (raise StepError when it failed)."""
    if kind == DEV:
        return ("restart skipped: a development run (scripts/dev) cannot be restarted "
                "from here; stop and start scripts/dev to run the new code")
    _run(["systemctl", "restart", *UNITS], RESTART_TIMEOUT, Path("/"))
    try:
        _run(["systemctl", "try-restart", BRIDGE_UNIT], RESTART_TIMEOUT, Path("/"))
    except StepError as err:
        return f"both daemons restarted; the MQTT bridge was not: {err}"
    return "both daemons restarted"
