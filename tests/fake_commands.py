"""Stand-ins for system commands (sudo, systemctl, reboot, poweroff...), put first on PATH.

Each stand-in is a small executable that appends its argv (a JSON list, one line) to a
calls file, prints what the real command prints and exits with its code. ``sudo`` is a
pass-through: it checks ``-n``, records, and runs the rest from PATH, so the recorded
commands show both the sudo and what it ran.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

_FAKE = '''#!{python}
import json, os, sys
with open({calls!r}, "a") as handle:
    handle.write(json.dumps([os.path.basename(sys.argv[0]), *sys.argv[1:]]) + "\\n")
sys.stdout.write({stdout!r})
sys.stderr.write({stderr!r})
sys.exit({code})
'''

_SUDO = '''#!{python}
import json, os, sys
with open({calls!r}, "a") as handle:
    handle.write(json.dumps(["sudo", *sys.argv[1:]]) + "\\n")
args = sys.argv[1:]
if not args or args[0] != "-n":
    sys.stderr.write("sudo: a terminal is required to read the password\\n")
    sys.exit(1)
os.execvp(args[1], args[1:])
'''


class FakeBin:
    """A folder of stand-ins and the file they record their calls in."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.calls_file = folder / "calls.jsonl"
        folder.mkdir(parents=True, exist_ok=True)
        self.calls_file.touch()

    def add(self, name: str, *, stdout: str = "", stderr: str = "", code: int = 0) -> Path:
        """Put a stand-in for ``name`` in the folder (replacing one there)."""
        return self._write(name, _FAKE.format(python=sys.executable, calls=str(self.calls_file),
                                              stdout=stdout, stderr=stderr, code=code))

    def add_sudo(self) -> Path:
        """Put the pass-through ``sudo`` in the folder."""
        return self._write("sudo", _SUDO.format(python=sys.executable,
                                                calls=str(self.calls_file)))

    def path_env(self) -> str:
        """Return PATH with this folder first."""
        return f"{self.folder}{os.pathsep}{os.environ.get('PATH', '')}"

    def calls(self) -> list[list[str]]:
        """Return every recorded argv, oldest first."""
        return [json.loads(line) for line in self.calls_file.read_text().splitlines() if line]

    def _write(self, name: str, text: str) -> Path:
        path = self.folder / name
        path.write_text(text)
        path.chmod(0o755)
        return path
