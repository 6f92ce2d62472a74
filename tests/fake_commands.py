"""Stand-ins for system commands (sudo, systemctl, reboot, poweroff, journalctl, nmcli...),
small executables put first on PATH that record their argv.

Two ways to use them. ``FakeBin(folder)`` records every stand-in's argv (a JSON list with
the command's name first) in one calls file; its ``sudo`` is a pass-through that checks
``-n``, records and runs the rest from PATH. ``fake_command(bin_dir, name)`` writes one
stand-in recording its arguments to ``bin_dir/<name>.calls``, read back with ``calls``;
``path_with(bin_dir)`` is a PATH with the stand-ins first.

For stateful stand-ins (the installer's: apt-get, useradd, systemctl... that change a
fake system under a test folder), ``write_fake(bin_dir, name, body)`` writes one that
appends ``{"cmd", "argv", "cwd", "env"}`` to the file named by ``FAKE_COMMANDS_LOG``
(``env``: the ``RECORDED_ENV`` variables that are set), then runs ``body``, Python code
that sees ``argv``, ``os``, ``sys``, ``json`` and ``Path``; ``recorded(log)`` reads the
calls back.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any


class FakeBin:
    """A folder of stand-ins and the one file they all record their calls in."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.calls_file = folder / "calls.jsonl"
        folder.mkdir(parents=True, exist_ok=True)
        self.calls_file.touch()

    def add(self, name: str, *, stdout: str = "", stderr: str = "", code: int = 0) -> Path:
        """Put a stand-in for ``name`` in the folder (replacing one there)."""
        return recorder(self.folder, name, self.calls_file, output=stdout, stderr=stderr,
                        exit_code=code)

    def add_sudo(self) -> Path:
        """Put the pass-through ``sudo`` in the folder."""
        return recorder(self.folder, "sudo", self.calls_file, run_rest=True)

    def path_env(self) -> str:
        """Return PATH with this folder first."""
        return path_with(self.folder)

    def calls(self) -> list[list[str]]:
        """Return every recorded argv, oldest first."""
        return _json_lines(self.calls_file)


def fake_command(bin_dir: Path, name: str, *, exit_code: int = 0, output: str = "",
                 extra: str = "") -> Path:
    """Write a recording fake ``name`` into ``bin_dir``; ``extra`` is Python run before it
    exits (``argv`` holds the arguments)."""
    log = bin_dir / f"{name}.calls"
    return _executable(bin_dir / name, (
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "argv = sys.argv[1:]\n"
        f"with open({str(log)!r}, 'a') as f:\n"
        "    f.write(json.dumps(argv) + '\\n')\n"
        f"{extra}\n"
        f"sys.stdout.write({output!r})\n"
        f"sys.exit({exit_code})\n"))


def calls(bin_dir: Path, name: str) -> list[list[str]]:
    """Return the argument lists the fake ``name`` was run with, in order."""
    return _json_lines(bin_dir / f"{name}.calls")


def path_with(bin_dir: Path, keep_system: bool = True) -> str:
    """Return PATH with ``bin_dir`` first (and the system's folders after it if
    ``keep_system``)."""
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}" if keep_system else str(bin_dir)


def install(bin_dir: Path, name: str, script: Path) -> Path:
    """Put an executable ``name`` in ``bin_dir`` that runs the Python file ``script``
    (a stateful fake such as nmcli's); return its path."""
    return _executable(bin_dir / name, f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n")


def recorder(bin_dir: Path, name: str, calls: Path, *, output: str = "", stderr: str = "",
             exit_code: int = 0, run_rest: bool = False) -> Path:
    """A fake ``name`` that records ``[name, *argv]`` to ``calls``, prints ``output`` (and
    ``stderr``) and exits ``exit_code``. ``run_rest`` (for sudo): refuse without ``-n``, as
    sudo does with no terminal, else run the rest of its arguments from PATH."""
    body = (f"#!{sys.executable}\n"
            "import json, os, sys\n"
            f"with open({str(calls)!r}, 'a') as f:\n"
            f"    f.write(json.dumps([{name!r}, *sys.argv[1:]]) + '\\n')\n")
    if run_rest:
        body += ("args = sys.argv[1:]\n"
                 "if not args or args[0] != '-n':\n"
                 "    sys.stderr.write('sudo: a terminal is required to read the password\\n')\n"
                 "    sys.exit(1)\n"
                 "os.execvp(args[1], args[1:])\n")
    else:
        body += (f"sys.stdout.write({output!r})\nsys.stderr.write({stderr!r})\n"
                 f"sys.exit({exit_code})\n")
    return _executable(bin_dir / name, body)


def calls_of(calls: Path) -> list[list[str]]:
    """Every argv a ``recorder`` wrote to ``calls``, oldest first."""
    return _json_lines(calls)


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
    """Write the stateful stand-in ``name`` into ``bin_dir``; return its path."""
    return _executable(bin_dir / name, _PRELUDE.format(python=sys.executable, name=name,
                                                       env=RECORDED_ENV) + body + "\n")


def recorded(log: Path) -> list[dict[str, Any]]:
    """Every call the ``write_fake`` stand-ins recorded in ``log``, in order."""
    return _json_lines(log)


def _executable(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (its folder made if needed) as an executable; return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def _json_lines(path: Path) -> list[Any]:
    """Every JSON line of ``path``, oldest first; none while the file does not exist."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
