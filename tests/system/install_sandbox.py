"""A target system in a folder for ``scripts/install``: fake commands and a fake board.

``Sandbox`` lays out ``root/`` (what the installer sees as "/": ``/etc/passwd``, the
board's ``/proc`` files, dpkg's list), ``source/`` (a checkout: the installer, the units,
the config template), ``lib/`` (a tiny git repository standing for rpi-rgb-led-matrix)
and ``bin/`` (the fakes, first on PATH). Every fake records its call; what the real
command would change (dpkg's list, users and groups, enabled units, a swap file, the
built binding) it changes under ``root/``. The binding's build is the one heavy part
faked: the venv's python "builds" by noting, in the venv, whether the library checkout
has the Pi 5 backend (a file ``RP1`` in ``lib/``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fake_commands import path_with, recorded, write_fake

ROOT = Path(__file__).resolve().parents[2]
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
GIB_KIB = 1024 * 1024
MUTATING = {"apt-get", "groupadd", "useradd", "usermod", "userdel", "groupdel", "visudo",
            "fallocate", "mkswap", "swapon", "swapoff"}

_TARGET = 'root = Path(os.environ["FAKE_ROOT"])\n'

DPKG_QUERY = _TARGET + '''
have = root / "var/lib/dpkg/fake-installed"
have = set(have.read_text().split()) if have.exists() else set()
missing = False
for name in argv[argv.index("-f") + 2:]:
    if name in have:
        print(name, "installed")
    else:
        print(f"dpkg-query: no packages found matching {name}", file=sys.stderr)
        missing = True
sys.exit(1 if missing else 0)
'''

APT_GET = _TARGET + '''
if os.environ.get("FAKE_APT_FAIL") and "install" in argv:
    print("Reading package lists...\\nE: Unable to locate package cython3")
    sys.exit(100)
if "install" in argv:
    names = [a for a in argv[argv.index("install") + 1:] if not a.startswith("-")]
    with open(root / "var/lib/dpkg/fake-installed", "a") as handle:
        handle.write("\\n".join(names) + "\\n")
    if "git" in names and os.environ.get("FAKE_APT_GIT"):  # a real git, now "installed"
        (Path(sys.argv[0]).parent / "git").symlink_to(os.environ["FAKE_APT_GIT"])
'''

ACCOUNTS = '''
root = Path(argv[argv.index("--root") + 1]) if "--root" in argv else Path("/nonexistent")
def lines(name):
    return (root / "etc" / name).read_text().splitlines()
def save(name, rows):
    (root / "etc" / name).write_text("".join(r + "\\n" for r in rows))
'''

GROUPADD = ACCOUNTS + 'save("group", lines("group") + [f"{argv[-1]}:x:990:"])\n'
USERADD = ACCOUNTS + '''
save("passwd", lines("passwd") + [f"{argv[-1]}:x:990:990::/nonexistent:/usr/sbin/nologin"])
'''
USERMOD = ACCOUNTS + '''
group, user = argv[argv.index("--groups") + 1], argv[-1]
rows = []
for row in lines("group"):
    f = row.split(":")
    if f[0] == group:
        f[3] = ",".join([m for m in f[3].split(",") if m] + [user])
    rows.append(":".join(f))
save("group", rows)
'''
USERDEL = ACCOUNTS + '''
save("passwd", [r for r in lines("passwd") if r.split(":")[0] != argv[-1]])
save("group", [r for r in lines("group") if r.split(":")[0] != argv[-1]])
'''
GROUPDEL = ACCOUNTS + 'save("group", [r for r in lines("group") if r.split(":")[0] != argv[-1]])\n'

SYSTEMCTL = _TARGET + '''
state = root / "etc/systemd/fake-enabled"
enabled = set(state.read_text().split()) if state.exists() else set()
args = [a for a in argv if not a.startswith("-")]
verb, names = args[0], args[1:]
if verb == "is-enabled":
    on = names[0] in enabled
    print("enabled" if on else "disabled")
    sys.exit(0 if on else 1)
if verb in ("enable", "disable"):
    enabled = enabled | set(names) if verb == "enable" else enabled - set(names)
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("\\n".join(sorted(enabled)))
'''

VISUDO = '''
if os.environ.get("FAKE_VISUDO_FAIL"):
    print(f"{argv[-1]}:3:20: syntax error")
    sys.exit(1)
'''

FALLOCATE = 'Path(argv[-1]).write_bytes(b"")\n'
HOSTNAME = 'print("192.168.1.50 fd00::5" if "-I" in argv else "ledpanel-pi")\n'

PYTHON = '''
import shutil
exe = Path(sys.argv[0])
if argv[:2] == ["-m", "venv"]:
    venv = Path(argv[2])
    (venv / "bin").mkdir(parents=True)
    shutil.copy(exe, venv / "bin" / "python")
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\\n")
    sys.exit(0)
marker = exe.parent.parent / "fake-rgbmatrix"
if argv[:3] == ["-m", "pip", "install"]:
    if argv[-1] == ".":
        if os.environ.get("FAKE_BUILD_FAIL"):
            print("Building wheel for rgbmatrix (pyproject.toml)")
            print("cc1plus: fatal error: Killed signal terminated program cc1plus")
            sys.exit(1)
        marker.write_text("rp1" if Path("RP1").exists() else "no-rp1")
    sys.exit(0)
if argv[:1] == ["-c"] and "rgbmatrix" in argv[1]:
    if marker.exists():
        print(marker.read_text())
        sys.exit(0)
    print("ModuleNotFoundError: No module named 'rgbmatrix'", file=sys.stderr)
    sys.exit(1)
'''

FAKES = {"dpkg-query": DPKG_QUERY, "apt-get": APT_GET, "groupadd": GROUPADD,
         "useradd": USERADD, "usermod": USERMOD, "userdel": USERDEL, "groupdel": GROUPDEL,
         "systemctl": SYSTEMCTL, "visudo": VISUDO, "fallocate": FALLOCATE, "mkswap": "",
         "swapon": "", "swapoff": "", "hostname": HOSTNAME, "python3": PYTHON}

SOURCE_PARTS = ("scripts/install", "scripts/uninstall", "scripts/installer", "systemd",
                "config/config.template.json", "pyproject.toml", "plugin-repos",
                "plugins/.gitkeep", "assets/fonts")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   cwd=cwd, check=True, capture_output=True)


@dataclass
class Sandbox:
    """One target system, one checkout, one library repository; ``install`` runs them."""

    base: Path
    model: str = PI4
    memory_kib: int = 4 * GIB_KIB
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.root, self.source = self.base / "root", self.base / "source"
        self.lib, self.bin, self.log = self.base / "lib", self.base / "bin", self.base / "calls"
        self._make_root()
        self._make_source()
        self._make_library()
        for name, body in FAKES.items():
            write_fake(self.bin, name, body)

    def _make_root(self) -> None:
        etc = self.root / "etc"
        etc.mkdir(parents=True)
        (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                    "pi:x:1000:1000::/home/pi:/bin/bash\n")
        (etc / "group").write_text("root:x:0:\npi:x:1000:\n")
        (self.root / "var/lib/dpkg").mkdir(parents=True)
        (self.root / "var/lib/dpkg/fake-installed").write_text("python3\ngit\n")
        (self.root / "var/tmp").mkdir(parents=True)
        (self.root / "proc/device-tree").mkdir(parents=True)
        (self.root / "proc/modules").write_text("snd_bcm2835 24576 0 - Live 0x0\n")
        self.set_board(self.model, self.memory_kib)

    def set_board(self, model: str, memory_kib: int) -> None:
        (self.root / "proc/device-tree/model").write_text(model + "\0")
        (self.root / "proc/meminfo").write_text(f"MemTotal:       {memory_kib} kB\n")

    def _make_source(self) -> None:
        for part in SOURCE_PARTS:
            source, target = ROOT / part, self.source / part
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target,
                                ignore=shutil.ignore_patterns("__pycache__"))
            elif source.exists():
                shutil.copy2(source, target)
            else:
                target.write_text("")

    def _make_library(self) -> None:
        self.lib.mkdir()
        (self.lib / "pyproject.toml").write_text('[project]\nname = "rgbmatrix"\n')
        _git(self.lib, "init", "-q")
        self.commit_library()

    def commit_library(self, *, rp1: bool = False) -> None:
        if rp1:
            (self.lib / "RP1").write_text("the RP1 backend\n")
        _git(self.lib, "add", "-A")
        _git(self.lib, "commit", "-q", "--allow-empty", "-m", "library")

    def run(self, script: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, "PATH": path_with(self.bin), "FAKE_COMMANDS_LOG": str(self.log),
                    "FAKE_ROOT": str(self.root), "LEDPANEL_MATRIX_SOURCE": str(self.lib),
                    "SUDO_USER": "pi", **self.env, **env}
        return subprocess.run([sys.executable, str(self.source / "scripts" / script),
                               "--root", str(self.root), *args], env=full_env,
                              capture_output=True, text=True, timeout=120, check=False)

    def install(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return self.run("install", *args, **env)

    def uninstall(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return self.run("uninstall", *args, **env)

    def calls(self) -> list[dict[str, Any]]:
        return recorded(self.log)

    def forget_calls(self) -> None:
        self.log.unlink(missing_ok=True)

    def changes(self) -> list[dict[str, Any]]:
        """The recorded calls that change something (not look-ups)."""
        found = []
        for call in self.calls():
            argv = call["argv"]
            if call["cmd"] in MUTATING or (call["cmd"] == "systemctl"
                                          and "is-enabled" not in argv):
                found.append(call)
            elif call["cmd"] == "python3" and argv[:1] != ["-c"]:
                found.append(call)
        return found

    def snapshot(self) -> dict[str, tuple[int, int, int, float]]:
        """Every path under root: (mode, uid, gid, mtime), links not followed."""
        found = {}
        for folder, dirs, files in os.walk(self.root):
            for name in (*dirs, *files):
                path = Path(folder, name)
                info = path.lstat()
                found[str(path.relative_to(self.root))] = (info.st_mode, info.st_uid,
                                                           info.st_gid, info.st_mtime)
        return found
