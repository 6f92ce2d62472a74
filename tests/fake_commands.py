"""Fake system commands for tests: small executables put first on PATH.

Each fake is a Python script (run by this interpreter) that appends one JSON line to the
record file named by ``FAKE_COMMANDS_LOG`` (``{"cmd", "argv", "cwd", "env"}``: ``env``
holds the ``RECORDED_ENV`` variables that are set), then runs its own ``body``: Python
code that sees ``argv`` (the arguments, without the command's name), ``os``, ``sys``,
``json`` and ``Path``, and may print and ``sys.exit``. With no body it prints nothing and
exits 0. Fakes stand only at the OS edge: what the real command would change on the
machine, a body changes under the test's own folders.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

RECORDED_ENV = ("TMPDIR", "CMAKE_BUILD_PARALLEL_LEVEL", "MAKEFLAGS", "DEBIAN_FRONTEND",
                "PIP_PREFER_BINARY")

_PRELUDE = '''#!{python}
import json, os, sys
from pathlib import Path
argv = sys.argv[1:]
_log = os.environ.get("FAKE_COMMANDS_LOG")
if _log:
    with open(_log, "a", encoding="utf-8") as _handle:
        _handle.write(json.dumps({{"cmd": {name!r}, "argv": argv, "cwd": os.getcwd(),
                                  "env": {{k: os.environ[k] for k in {env!r}
                                          if k in os.environ}}}}) + "\\n")
'''


def write_fake(bin_dir: Path, name: str, body: str = "") -> Path:
    """Write the fake ``name`` into ``bin_dir``; return its path."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    path = bin_dir / name
    path.write_text(_PRELUDE.format(python=sys.executable, name=name, env=RECORDED_ENV)
                    + body + "\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def recorded(log: Path) -> list[dict[str, Any]]:
    """Return every recorded call, in order."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


def fake_path(bin_dir: Path) -> str:
    """PATH with the fakes first, then what the test process had."""
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
