"""Install a plugin's requirements.txt into the plugin's own folder, bounded in time.

The file is read and checked first (``requirement_lines``): only plain requirements pass,
and the accepted ones (not the file) are given to pip as arguments:
``[python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
"--target", <plugin>/.ledpanel-deps, "-c", constraints, "--", requirement...]``, in its
own process group; on timeout the whole group is killed. pip's output is logged, and its
last lines are in the error when it fails.

A target folder (``shared.plugin_system.dependencies``), not the daemons' shared
environment: nothing a plugin brings is importable in the web daemon, and a package's
``.pth`` file (code Python runs at every start) is never where an interpreter reads it;
the install is refused anyway when the folder holds one. The display puts the folder on
the path, after the core's site-packages, when it loads the plugin.

Core pins keep holding, twice. A requirement naming a distribution the core depends on,
directly or through another (Flask, and Werkzeug and Jinja2 below it; requests and
urllib3...), with a version range excluding the installed one fails with
``DEPENDENCIES_FAILED`` before pip runs (``core_constraints``); what pip resolves beyond
the listed requirements is constrained to the same pins (a constraints file written for
each run). A listed requirement the environment already satisfies (``requests>=2``) is not
installed again; one pip installs anyway as a dependency of another sits after
site-packages on the path, where the core's copy wins.
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

from shared.plugin_system.dependencies import deps_dir
from web_service.store.errors import StoreError
from web_service.store.install.requirement_lines import RequirementLine, read_requirements

logger = logging.getLogger(__name__)

TAIL_LINES = 15
CORE_DISTRIBUTION = "ledpanel"
# pyproject.toml's dependencies, for a checkout run without installing the project
CORE_DEPENDENCIES = ("Flask", "Flask-Limiter", "jsonschema", "Pillow", "watchdog",
                     "requests", "packaging", "waitress")
MAX_DISTRIBUTIONS = 1000  # the walk stops there, whatever the metadata says
MAX_INSTALLED_ENTRIES = 100_000  # files and folders the .pth check walks at most


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
    """Install what ``file`` lists into its folder's dependency folder.

    Raise StoreError: UNSAFE_REQUIREMENTS for a line that is not a plain requirement or a
    package holding a ``.pth`` file, DEPENDENCIES_FAILED for a conflict with the core's
    pins or a failing pip (with pip's last lines).
    """
    wanted = [line for line in read_requirements(plugin_id, file)
              if _applies(line.requirement)]
    pins = core_constraints()
    refuse_core_conflicts(plugin_id, wanted, pins)
    needed = [str(line.requirement) for line in wanted if not _provided(line.requirement)]
    if not needed:
        logger.info("%s: requirements already provided by the core environment", plugin_id)
        return
    target = deps_dir(file.parent)
    with tempfile.NamedTemporaryFile("w", prefix="ledpanel-constraints-", suffix=".txt",
                                     encoding="utf-8") as constraints:
        constraints.write("".join(f"{pin}\n" for pin in pins))
        constraints.flush()
        command = [python, "-m", "pip", "install", "--disable-pip-version-check",
                   "--no-input", "--no-warn-script-location", "--target", str(target),
                   "-c", constraints.name, "--", *needed]
        logger.info("%s: installing requirements (core pinned: %s): %s", plugin_id,
                    ", ".join(pins) or "none", " ".join(command))
        _run_pip(plugin_id, command, file.parent, timeout)
    refuse_pth_files(plugin_id, target)


def refuse_core_conflicts(plugin_id: str, wanted: list[RequirementLine],
                          pins: list[str]) -> None:
    """Raise DEPENDENCIES_FAILED when a requirement excludes a core pin's version."""
    pinned = {canonicalize_name(pin.partition("==")[0]): pin for pin in pins}
    for line in wanted:
        pin = pinned.get(canonicalize_name(line.requirement.name))
        if pin is None:
            continue
        version = pin.partition("==")[2]
        if not line.requirement.specifier.contains(version, prereleases=True):
            raise StoreError(
                f"{plugin_id}: requirements.txt line {line.number}: "
                f"{line.requirement.name}{line.requirement.specifier} conflicts with the "
                f"core's {pin}; ask for a range that includes {version}",
                "DEPENDENCIES_FAILED")


def refuse_pth_files(plugin_id: str, target: Path) -> None:
    """Raise UNSAFE_REQUIREMENTS when the installed folder holds any ``.pth`` file."""
    seen = 0
    for folder, dirs, files in os.walk(target):
        seen += len(dirs) + len(files)
        found = sorted(name for name in files if name.endswith(".pth"))
        if found:
            where = Path(folder, found[0]).relative_to(target)
            raise StoreError(
                f"{plugin_id}: a required package installs {where}, a .pth file Python "
                "would run at start-up; packages shipping .pth files are refused: ask the "
                "plugin's author for a requirement without one", "UNSAFE_REQUIREMENTS")
        if seen > MAX_INSTALLED_ENTRIES:
            raise StoreError(f"{plugin_id}: the requirements installed more than "
                             f"{MAX_INSTALLED_ENTRIES} files", "UNSAFE_REQUIREMENTS")


def _applies(requirement: Requirement) -> bool:
    """True when the requirement's marker (if any) holds here."""
    try:
        return requirement.marker is None or requirement.marker.evaluate({"extra": ""})
    except (UndefinedEnvironmentName, InvalidMarker):
        return True  # pip decides


def _provided(requirement: Requirement) -> bool:
    """True when the core environment already has a version the requirement accepts."""
    if requirement.extras:
        return False  # what the extras need may be missing
    try:
        version = importlib.metadata.version(requirement.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return requirement.specifier.contains(version, prereleases=True)


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
