"""Recording fakes of system commands, put first on PATH for one test.

``install(bin_dir, name, script)`` makes ``bin_dir/name`` an executable that runs the
Python file ``script`` with this interpreter; ``recorder(bin_dir, name, calls, ...)``
makes one that appends its argv as a JSON line to ``calls`` and answers with fixed
output and exit code (enough for systemctl, sudo and the like).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def install(bin_dir: Path, name: str, script: Path) -> Path:
    """Put an executable ``name`` in ``bin_dir`` that runs ``script``; return its path."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = bin_dir / name
    target.write_text(f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n")
    target.chmod(0o755)
    return target


def recorder(bin_dir: Path, name: str, calls: Path, *, output: str = "",
             exit_code: int = 0, run_rest: bool = False) -> Path:
    """A fake ``name`` that records ``[name, *argv]`` to ``calls``, prints ``output`` and
    exits ``exit_code``. ``run_rest`` (for sudo): run its arguments after ``-n`` instead."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = bin_dir / name
    body = (
        "import json, os, sys\n"
        f"with open({str(calls)!r}, 'a') as f:\n"
        f"    f.write(json.dumps([{name!r}, *sys.argv[1:]]) + '\\n')\n")
    if run_rest:
        body += ("args = [a for a in sys.argv[1:] if a != '-n']\n"
                 "os.execv(args[0], args)\n")
    else:
        body += f"sys.stdout.write({output!r})\nsys.exit({exit_code})\n"
    target.write_text(f"#!{sys.executable}\n{body}")
    target.chmod(0o755)
    return target


def calls_of(calls: Path) -> list[list[str]]:
    """Every recorded argv, oldest first."""
    if not calls.exists():
        return []
    return [json.loads(line) for line in calls.read_text().splitlines() if line.strip()]


def path_with(bin_dir: Path, keep_system: bool = True) -> str:
    """PATH with ``bin_dir`` first (and the system's folders after it if ``keep_system``)."""
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}" if keep_system else str(bin_dir)


