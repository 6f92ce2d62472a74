"""Install a plugin's requirements.txt with pip in a subprocess, bounded in time.

The command is ``[python, "-m", "pip", "install", "--disable-pip-version-check", "-c",
constraints, "-r", file]`` in its own process group; on timeout the whole group is
killed. pip's output is logged, and its last lines are in the error when it fails.

Plugins share the daemons' environment, so the constraints file (written for each run
to a temp file) pins every distribution the core depends on, directly or through another
(Flask, and Werkzeug and Jinja2 below it; requests and urllib3...), to the version
installed now (``core_constraints``): a plugin asking for another version of any of them
fails with ``DEPENDENCIES_FAILED`` instead of changing it under both daemons (pip only
warns when an install breaks a package outside its request).
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import signal
import subprocess
import tempfile
from pathlib import Path

from packaging.markers import InvalidMarker, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from web_service.store.errors import StoreError

logger = logging.getLogger(__name__)

TAIL_LINES = 15
CORE_DISTRIBUTION = "ledpanel"
# pyproject.toml's dependencies, for a checkout run without installing the project
CORE_DEPENDENCIES = ("Flask", "Flask-Limiter", "jsonschema", "Pillow", "watchdog",
                     "requests", "packaging", "waitress")
MAX_DISTRIBUTIONS = 1000  # the walk stops there, whatever the metadata says


def core_constraints() -> list[str]:
    """Return ``name==version`` for every distribution the core needs, as installed now.

    The installed dependency tree is walked from the ``ledpanel`` distribution
    (``Requires-Dist``, recursively; extras and markers that do not apply here are
    skipped). A checkout run without installing the project walks from
    ``CORE_DEPENDENCIES`` instead (logged).
    """
    try:
        importlib.metadata.distribution(CORE_DISTRIBUTION)
        roots = [CORE_DISTRIBUTION]
    except importlib.metadata.PackageNotFoundError:
        logger.warning("the %s distribution is not installed; pinning what its "
                       "dependencies (%s) need", CORE_DISTRIBUTION, ", ".join(CORE_DEPENDENCIES))
        roots = list(CORE_DEPENDENCIES)
    pins: dict[str, str] = {}
    seen = {canonicalize_name(name) for name in roots}
    queue = list(roots)
    while queue and len(seen) <= MAX_DISTRIBUTIONS:
        name = queue.pop(0)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # not installed here: nothing to protect
        if canonicalize_name(name) != CORE_DISTRIBUTION:
            pins[canonicalize_name(name)] = f"{dist.metadata['Name'] or name}=={dist.version}"
        for needed in _needs(dist.requires or []):
            if canonicalize_name(needed) not in seen:
                seen.add(canonicalize_name(needed))
                queue.append(needed)
    return [pins[key] for key in sorted(pins)]


def _needs(lines: list[str]) -> list[str]:
    """Return the names of the requirements that apply here (no extras, markers true)."""
    names: list[str] = []
    for line in lines:
        try:
            requirement = Requirement(line)
            if requirement.marker is not None and \
                    not requirement.marker.evaluate({"extra": ""}):
                continue
        except (InvalidRequirement, UndefinedEnvironmentName, InvalidMarker):
            continue
        names.append(requirement.name)
    return names


def install_requirements(plugin_id: str, file: Path, *, python: str, timeout: float) -> None:
    """Run pip on ``file``; raise StoreError(DEPENDENCIES_FAILED) with pip's last lines."""
    pins = core_constraints()
    with tempfile.NamedTemporaryFile("w", prefix="ledpanel-constraints-", suffix=".txt",
                                     encoding="utf-8") as constraints:
        constraints.write("".join(f"{pin}\n" for pin in pins))
        constraints.flush()
        command = [python, "-m", "pip", "install", "--disable-pip-version-check",
                   "-c", constraints.name, "-r", str(file)]
        logger.info("%s: installing requirements (core pinned: %s): %s", plugin_id,
                    ", ".join(pins) or "none", " ".join(command))
        _run_pip(plugin_id, command, file.parent, timeout)


def _run_pip(plugin_id: str, command: list[str], cwd: Path, timeout: float) -> None:
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=cwd, env=env,
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
