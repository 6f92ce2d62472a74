"""Tiny wheels written by hand, for real pip runs that never leave the machine.

A wheel is a ZIP with the package's files and a ``<name>-<version>.dist-info`` folder
holding METADATA, WHEEL and RECORD (each file's sha256 and size). Tests point pip at the
folder through pip's own environment variables (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``),
which the store's pip inherits from the daemon: the operator's switch, never the plugin's.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import subprocess
import sys
import zipfile
from pathlib import Path


def build_wheel(folder: Path, name: str, version: str, files: dict[str, str],
                requires: tuple[str, ...] = ()) -> Path:
    """Write ``<name>-<version>-py3-none-any.whl`` into ``folder``; return its path."""
    dist = f"{name.replace('-', '_')}-{version}"
    info = f"{dist}.dist-info"
    entries = dict(files)
    entries[f"{info}/METADATA"] = "".join(
        [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
         *(f"Requires-Dist: {item}\n" for item in requires)])
    entries[f"{info}/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: ledpanel-tests\n"
                                "Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [f"{path},sha256={_digest(text.encode())},{len(text.encode())}"
              for path, text in entries.items()]
    entries[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in entries.items():
            archive.writestr(member, text)
    return path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def offline_pip_env(wheels: Path) -> dict[str, str]:
    """The environment variables that make pip install only from ``wheels``."""
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels)}


def remove_from_shared_environment(*names: str) -> list[str]:
    """Uninstall any of the test distributions ``names`` that reached the environment the
    tests run in (only a store that installs into it, the bug tested for, puts them
    there); return those found."""
    leaked = []
    for name in names:
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        leaked.append(name)
    if leaked:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", *leaked],
                       capture_output=True, timeout=120, check=False)
    return leaked
