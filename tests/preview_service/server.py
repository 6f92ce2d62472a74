"""The preview server as a real subprocess on a loopback port, and plugin folders for it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[2]


def write_plugin(plugins_dir: Path, plugin_id: str, body: str,
                 schema: dict[str, Any] | None = None, modes: list[str] | None = None) -> Path:
    """Write a plugin folder whose class ``Plugin`` has ``body`` as its class body."""
    folder = plugins_dir / plugin_id
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "tests",
                "entry_point": "manager.py", "class_name": "Plugin",
                "display_modes": modes or [plugin_id], "compatible_versions": [">=0.1.0"]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    if schema is not None:
        (folder / "config_schema.json").write_text(json.dumps(schema))
    source = ("import os, threading\nfrom shared.plugin_api.base_plugin import BasePlugin\n\n"
              "class Plugin(BasePlugin):\n    def update(self):\n        pass\n\n"
              + textwrap.indent(textwrap.dedent(body), "    "))
    (folder / "manager.py").write_text(source)
    return folder


class PreviewServer:
    """``python -m preview_service`` on 127.0.0.1 with a free port; stopped on exit."""

    def __init__(self, plugins_dir: Path, deadline: float = 3.0) -> None:
        self.plugins_dir = plugins_dir
        self.deadline = deadline
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    def __enter__(self) -> PreviewServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "preview_service", "--port", "0", "--plugins-dir",
             str(self.plugins_dir), "--deadline", str(self.deadline)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("preview: serving "), line
        self.url = line.split()[-1].rstrip("/")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=20)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.url + path, timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> requests.Response:
        return requests.post(self.url + path, json=body, timeout=30)
