"""Run one web-UI action script and leave nothing of it behind (standard library only).

``actions.run_action`` starts this file, not the script: ``python -I action_launcher.py
<script>``. The launcher makes itself the "child subreaper" of what it starts (Linux
``PR_SET_CHILD_SUBREAPER``), so a process the script starts stays below the launcher
even when it leaves the script's session (``setsid``) and its parent exits (a double
fork). When the script exits, or when the launcher is told to stop (SIGTERM, sent on
timeout or overflow), it kills every process still below it and exits with the
script's status. Standard input, output and error are the script's own (inherited).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
SWEEP_SECONDS = 2.0  # how long the sweep keeps finding and killing processes below us


def become_subreaper() -> bool:
    """Adopt orphans of our descendants; False where the kernel does not offer it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """Return the processes whose parent is ``pid`` (read from /proc)."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not re.fullmatch(r"[0-9]{1,10}", entry):
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue  # gone meanwhile
            fields = stat.rpartition(b")")[2].split()
            if len(fields) > 1 and fields[1] == str(pid).encode():
                found.append(int(entry))
    return found


def sweep() -> None:
    """Kill every process below us, taking in orphans until none is left (bounded)."""
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < deadline:
        below = children(me)
        for pid in below:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        reaped = False
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                reaped = True
        if not below and not reaped:
            return
        time.sleep(0.01)


def _stop(signum: int, frame: object) -> None:
    sweep()
    os._exit(128 + signum)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: action_launcher.py <script>\n")
        return 2
    become_subreaper()
    signal.signal(signal.SIGTERM, _stop)
    try:
        script = subprocess.Popen([sys.executable, argv[1]])  # noqa: S603 - ours, checked
    except OSError as error:
        sys.stderr.write(f"action script could not be started: {error}\n")
        return 126
    code = script.wait()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sweep()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
