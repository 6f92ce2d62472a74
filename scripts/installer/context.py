"""Everything a step does to the machine goes through ``Context``: commands and files.

In a dry run nothing is changed: each command or file change is printed as "would ...".
Read-only look-ups (``query``, reading files) run in a dry run too, so it tells what a
real run would do. ``root`` is where the target system's files are ("/" on a Pi); the
commands run as they are (tests put recording fakes first on PATH).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

OUTPUT_TAIL_LINES = 25
HEARTBEAT_S = 60.0


class StepFailed(Exception):
    """A step could not finish: what was run, what it printed, what to do."""

    def __init__(self, message: str, *, command: str | None = None,
                 output: str = "", hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.command = command
        self.output = output
        self.hint = hint


def tail(text: str, lines: int = OUTPUT_TAIL_LINES) -> str:
    """Return the last ``lines`` lines of ``text``."""
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])


@dataclass
class Context:
    """The target (root, prefix), the source checkout and how to act (dry run or not)."""

    source: Path
    root: Path = Path("/")
    prefix: str = "/opt/ledpanel"
    dry_run: bool = False
    out: TextIO = field(default_factory=lambda: sys.stdout)
    matrix_source: str = "https://github.com/hzeller/rpi-rgb-led-matrix.git"
    python: str = "python3"
    changed: list[str] = field(default_factory=list)

    # -- where things are -------------------------------------------------------------
    def path(self, absolute: str) -> Path:
        """Return the target system's ``absolute`` path as seen from here (under root)."""
        return self.root / absolute.lstrip("/")

    @property
    def install_dir(self) -> Path:
        return self.path(self.prefix)

    @property
    def venv(self) -> str:
        """The virtual environment, as the target system names it."""
        return f"{self.prefix}/.venv"

    # -- saying what happens ----------------------------------------------------------
    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def note(self, text: str) -> None:
        self.say(f"      {text}")

    # -- commands ---------------------------------------------------------------------
    def run(self, argv: Sequence[str], *, cwd: Path | None = None,
            env: Mapping[str, str] | None = None, timeout: float | None = None) -> str:
        """Run a command that changes something; StepFailed with its output if it fails."""
        command = shlex.join(argv)
        if self.dry_run:
            self.note(f"would run: {command}")
            return ""
        self.note(f"$ {command}")
        self.changed.append(command)
        returncode, output = self._wait(argv, cwd, {**os.environ, **(env or {})}, timeout)
        if returncode is None:
            raise StepFailed(f"it took longer than {timeout:.0f} s", command=command,
                             output=output)
        if returncode != 0:
            raise StepFailed(f"it exited with status {returncode}", command=command,
                             output=output)
        return output

    def _wait(self, argv: Sequence[str], cwd: Path | None, env: dict[str, str],
              timeout: float | None) -> tuple[int | None, str]:
        """Run to the end (None: killed at ``timeout``), saying every minute it still runs.

        The output goes to a file, not a pipe, so a command printing a lot never blocks.
        """
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
            try:
                child = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
            except FileNotFoundError:
                raise StepFailed(f"{argv[0]} is not installed", command=shlex.join(argv)) from None
            waited = 0.0
            returncode: int | None = None
            while returncode is None:
                try:
                    returncode = child.wait(timeout=HEARTBEAT_S)
                except subprocess.TimeoutExpired:
                    waited += HEARTBEAT_S
                    if timeout is not None and waited >= timeout:
                        os.killpg(child.pid, signal.SIGKILL)
                        child.wait()
                        break
                    self.note(f"... still running ({waited / 60:.0f} min)")
            log.seek(0)
            return returncode, log.read()

    def query(self, argv: Sequence[str], *,
              env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a read-only command (also in a dry run); never raises on failure."""
        try:
            return subprocess.run(list(argv), env={**os.environ, **(env or {})},
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            return subprocess.CompletedProcess(list(argv), 127, "", str(err))

    # -- files ------------------------------------------------------------------------
    def write_file(self, target: Path, text: str, mode: int) -> None:
        """Write ``text`` to ``target`` whole (a temporary file renamed over it)."""
        if self.dry_run:
            self.note(f"would write {target}")
            return
        self.note(f"writing {target}")
        self.changed.append(f"write {target}")
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.chmod(temp, mode)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def remove(self, target: Path) -> None:
        """Remove a file, a link or a whole folder, if it is there."""
        if not (target.exists() or target.is_symlink()):
            return
        if self.dry_run:
            self.note(f"would remove {target}")
            return
        self.note(f"removing {target}")
        self.changed.append(f"remove {target}")
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink()

    def symlink(self, link: Path, target: str) -> None:
        """Point ``link`` at ``target``, replacing what was there."""
        if self.dry_run:
            self.note(f"would link {link} -> {target}")
            return
        self.note(f"linking {link} -> {target}")
        self.changed.append(f"link {link}")
        link.parent.mkdir(parents=True, exist_ok=True)
        temp = link.with_name(f".{link.name}.new")
        temp.unlink(missing_ok=True)
        temp.symlink_to(target)
        os.replace(temp, link)

    def read_text(self, target: Path) -> str | None:
        """Return a small text file's content, or None when it cannot be read."""
        try:
            with target.open("rb") as handle:
                return handle.read(1 << 20).decode("utf-8", "replace")
        except OSError:
            return None
