"""Fakes for system commands: small executables put first on PATH that record their argv.

``fake_command(bin_dir, "systemctl")`` writes ``bin_dir/systemctl``; each run appends its
arguments as one JSON line to ``bin_dir/systemctl.calls`` and exits ``exit_code``
(printing ``output``). ``calls(bin_dir, name)`` reads them back. ``path_with(bin_dir)``
is a PATH with the fakes first.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def fake_command(bin_dir: Path, name: str, *, exit_code: int = 0, output: str = "",
                 extra: str = "") -> Path:
    """Write a recording fake ``name`` into ``bin_dir``; ``extra`` is Python run before it
    exits (``argv`` holds the arguments)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    path = bin_dir / name
    log = bin_dir / f"{name}.calls"
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "argv = sys.argv[1:]\n"
        f"with open({str(log)!r}, 'a') as f:\n"
        "    f.write(json.dumps(argv) + '\\n')\n"
        f"{extra}\n"
        f"sys.stdout.write({output!r})\n"
        f"sys.exit({exit_code})\n")
    path.chmod(0o755)
    return path


def calls(bin_dir: Path, name: str) -> list[list[str]]:
    """Return the argument lists the fake ``name`` was run with, in order."""
    log = bin_dir / f"{name}.calls"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line]


def path_with(bin_dir: Path) -> str:
    """Return PATH with ``bin_dir`` first."""
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
