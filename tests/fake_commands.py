"""Fakes of system commands for tests: small executables put first on PATH that record
how they were called and answer like the real command (the output a test gives them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

_SCRIPT = '''#!{python}
import json, sys
with open({calls!r}, "a", encoding="utf-8") as calls:
    calls.write(json.dumps(sys.argv[1:]) + "\\n")
sys.stdout.write({output!r})
sys.exit({status})
'''


def fake_command(folder: Path, name: str, output: str = "", status: int = 0) -> Path:
    """Write an executable ``folder/name`` that appends its arguments (one JSON list per
    run) to ``folder/name.calls``, prints ``output`` and exits with ``status``; return
    the calls file. Put ``folder`` first on PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    calls = folder / f"{name}.calls"
    script = folder / name
    script.write_text(_SCRIPT.format(python=sys.executable, calls=str(calls), output=output,
                                     status=status))
    script.chmod(0o755)
    return calls


def calls_of(calls: Path) -> list[list[str]]:
    """Return the argument lists a fake was run with, oldest first."""
    if not calls.exists():
        return []
    return [json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines()]
