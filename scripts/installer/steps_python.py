"""Steps that lay down the project: the code in the prefix, who may write which folder,
and the one virtual environment both daemons run from.

Ownership, so the store works and root runs nothing the web daemon could change:

- the code and ``.venv`` belong to root and are writable by no group (the display
  daemon runs as root from them; ``scripts/ledpanel-pip-core`` refuses anything else);
  group ``ledpanel`` reads them, so both daemons use the same environment;
- the folders the web daemon (user ``ledpanel``) writes belong to ``ledpanel:ledpanel``,
  group-writable with the setgid bit (2775: new files keep the group, so the display
  daemon, group ``ledpanel``, writes there too): the config, both plugin folders (the
  store installs each plugin's requirements inside its folder, ``.ledpanel-deps``) and
  the uploads under ``assets/``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from installer.context import Context, StepFailed
from installer.step import Step
from installer.system_info import SERVICE_GROUP, SERVICE_USER, group_id, owner_of, user_id

WRITABLE_DIRS = ("config", "plugin-repos", "plugins", "assets")
SHARED_MODE = 0o2775
COPY_IGNORE = shutil.ignore_patterns(".venv", ".venv-*", "var", "__pycache__", "*.pyc",
                                     ".pytest_cache", ".mypy_cache", ".ruff_cache",
                                     "*.egg-info", "build")
VENV_STAMP = ".ledpanel-installed"
PACKAGES = ("shared", "display_service", "web_service")
PIP_TIMEOUT = 1800.0


class Code(Step):
    name = "code"
    title = "put the code in the install folder"

    def pending(self, ctx: Context) -> list[str]:
        target = ctx.install_dir
        if (target / "pyproject.toml").is_file():
            return []
        return [f"copy {ctx.source} to {ctx.prefix}"]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        target = ctx.install_dir
        if target.exists() and any(target.iterdir()):
            raise StepFailed(f"{ctx.prefix} exists and holds something else; move it away "
                             "or install with --prefix")
        if (ctx.source / ".git").exists():
            with tempfile.TemporaryDirectory() as folder:
                clone_checkout(ctx, target, Path(folder) / "gitconfig")
        elif ctx.dry_run:
            ctx.note(f"would copy {ctx.source} to {target}")
        else:
            ctx.note(f"copying {ctx.source} to {target}")
            staged = target.with_name(f".{target.name}.new")
            shutil.rmtree(staged, ignore_errors=True)
            shutil.copytree(ctx.source, staged, symlinks=True, ignore=COPY_IGNORE)
            if target.exists():
                target.rmdir()  # empty, checked above
            os.replace(staged, target)
            ctx.changed.append(f"copy {target}")


def clone_checkout(ctx: Context, target: Path, trust_file: Path) -> None:
    """Clone the checkout with its origin (``ledpanel update`` pulls from there).

    A checkout in the person's home belongs to them, not to root, and git refuses to
    read a repository another user owns unless its global config says it is safe; a
    config of its own for these commands says so, and root's own config is left alone.
    """
    source = str(ctx.source)
    trust_file.write_text(f"[safe]\n\tdirectory = {source}\n\tdirectory = {source}/.git\n")
    env = {"GIT_CONFIG_GLOBAL": str(trust_file)}
    ctx.run(["git", "clone", "--quiet", "--no-hardlinks", source, str(target)], env=env)
    origin = ctx.query(["git", "-C", source, "remote", "get-url", "origin"], env=env)
    if origin.returncode == 0 and origin.stdout.strip():
        ctx.run(["git", "-C", str(target), "remote", "set-url", "origin",
                 origin.stdout.strip()])


def _ids(ctx: Context) -> tuple[int, int]:
    uid, gid = user_id(ctx, SERVICE_USER), group_id(ctx, SERVICE_GROUP)
    if uid is None or gid is None:
        if ctx.dry_run:
            return -1, -1
        raise StepFailed(f"user or group {SERVICE_USER} is missing",
                         hint="run the 'user' step first: scripts/install --from user")
    return uid, gid


def _wrong(path: Path, uid: int, gid: int) -> bool:
    """Whether the web daemon (``uid``, group ``gid``) could not write ``path``.

    A folder must be ``ledpanel:ledpanel`` with 2775; a file, the web's own or the
    group's with group write (what the display daemon, root with UMask 0002, creates).
    A file's mode is otherwise left alone: the secrets stay 0600. Nothing may be
    writable by others.
    """
    found = owner_of(path)
    if found is None or stat.S_ISLNK(found[2]):
        return False
    owner, group, mode = found
    if stat.S_IMODE(mode) & stat.S_IWOTH:
        return True
    if stat.S_ISDIR(mode):
        return (owner, group) != (uid, gid) or (stat.S_IMODE(mode) & SHARED_MODE) != SHARED_MODE
    return owner != uid and not (group == gid and mode & stat.S_IWGRP)


def _walk(top: Path) -> list[Path]:
    paths = [top]
    for folder, dirs, files in os.walk(top):
        paths += [Path(folder, name) for name in (*dirs, *files)]
    return paths


class Permissions(Step):
    name = "permissions"
    title = (f"give {SERVICE_USER}:{SERVICE_GROUP} the folders the web daemon writes "
             "(config, plugins, uploads; folders group-writable, setgid)")

    def pending(self, ctx: Context) -> list[str]:
        uid, gid = user_id(ctx, SERVICE_USER), group_id(ctx, SERVICE_GROUP)
        left = []
        for name in WRITABLE_DIRS:
            top = ctx.install_dir / name
            if not top.is_dir() or uid is None or gid is None:
                left.append(name)
            elif any(_wrong(path, uid, gid) for path in _walk(top)):
                left.append(name)
        return left

    def apply(self, ctx: Context, pending: list[str]) -> None:
        uid, gid = _ids(ctx)
        for name in pending:
            top = ctx.install_dir / name
            if ctx.dry_run:
                ctx.note(f"would give {top} to {SERVICE_USER}:{SERVICE_GROUP}, mode 2775")
                continue
            ctx.note(f"{top}: {SERVICE_USER}:{SERVICE_GROUP}, folders 2775")
            top.mkdir(parents=True, exist_ok=True)
            for path in _walk(top):
                if path.is_symlink() or not _wrong(path, uid, gid):
                    continue
                os.chown(path, uid, gid)
                mode = stat.S_IMODE(path.stat().st_mode) & ~stat.S_IWOTH
                os.chmod(path, (mode | SHARED_MODE) if path.is_dir() else mode)
            ctx.changed.append(f"permissions {top}")


def venv_fingerprint(ctx: Context) -> str:
    """What the last install into the venv depended on: the project's dependencies."""
    pyproject = ctx.read_text(ctx.install_dir / "pyproject.toml") or ""
    return hashlib.sha256(f"{pyproject}\n{ctx.prefix}".encode()).hexdigest()


def build_env(ctx: Context, jobs: int) -> dict[str, str]:
    """Build settings: a temporary folder on disk (``/tmp`` is RAM on trixie), N jobs."""
    return {"TMPDIR": str(ctx.path(BUILD_TMP)), "CMAKE_BUILD_PARALLEL_LEVEL": str(jobs),
            "MAKEFLAGS": f"-j{jobs}", "PIP_PREFER_BINARY": "1"}


BUILD_DIR = "/var/tmp/ledpanel-build"
BUILD_TMP = f"{BUILD_DIR}/tmp"


class Venv(Step):
    name = "venv"
    title = "create the virtual environment (.venv) both daemons run from, and install ledpanel"

    def pending(self, ctx: Context) -> list[str]:
        venv = ctx.path(ctx.venv)
        if not (venv / "bin" / "python").exists():
            return [f"create {ctx.venv}", "install ledpanel"]
        if ctx.read_text(venv / VENV_STAMP) != venv_fingerprint(ctx):
            return ["install ledpanel"]
        return []

    def apply(self, ctx: Context, pending: list[str]) -> None:
        venv = ctx.path(ctx.venv)
        if f"create {ctx.venv}" in pending:
            ctx.run([ctx.python, "-m", "venv", str(venv)])
        if not ctx.dry_run:
            ctx.path(BUILD_TMP).mkdir(parents=True, exist_ok=True)
        # Binary wheels first (piwheels on Raspberry Pi OS): nothing compiles that need not.
        ctx.run([str(venv / "bin" / "python"), "-m", "pip", "install",
                 "--disable-pip-version-check", "--no-input", "--prefer-binary",
                 "-e", str(ctx.install_dir)],
                env=build_env(ctx, os.cpu_count() or 1), timeout=PIP_TIMEOUT)
        # Compiled once here: the daemons start without compiling every module (a large
        # share of a start on a small board), and the web daemon could not write them.
        ctx.run([str(venv / "bin" / "python"), "-m", "compileall", "-q", "-j", "0",
                 *(str(ctx.install_dir / name) for name in PACKAGES)])
        ctx.remove(ctx.path(BUILD_DIR))
        ctx.write_file(venv / VENV_STAMP, venv_fingerprint(ctx), 0o644)
