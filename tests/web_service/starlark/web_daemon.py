"""The real web daemon over a temporary instance, and the calls the scripted-app tests make."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from shared.paths import Paths
from shared.starlark.installed.folder import AppsFolder, apps_root
from tests.daemons import ROOT, Daemon, Instance, start_web

API = "/api/v3/starlark"
APPS = ROOT / "tests" / "shared" / "starlark" / "apps"
HELLO = ('load("render.star", "render")\n'
         "def main(config):\n"
         '    return render.Root(child = render.Text(config.get("who", "hi")))\n')


@dataclass
class WebDaemon:
    instance: Instance
    daemon: Daemon
    url: str

    def call(self, method: str, route: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", 60)
        return requests.request(method, f"{self.url}{API}{route}", **kwargs)

    def data(self, method: str, route: str, status: int = 200, **kwargs: Any) -> Any:
        answer = self.call(method, route, **kwargs)
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert body["status"] == "success"
        return body["data"]

    def refused(self, method: str, route: str, status: int, code: str,
                **kwargs: Any) -> dict[str, Any]:
        answer = self.call(method, route, **kwargs)
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert body["status"] == "error" and body["error_code"] == code, body
        return body

    def config(self) -> dict[str, Any]:
        return json.loads((self.instance.config_dir / "config.json").read_text())

    def section(self) -> dict[str, Any]:
        return self.config().get("starlark-apps") or {}

    @property
    def paths(self) -> Paths:
        return Paths(root=self.instance.base, config_dir=self.instance.config_dir,
                     cache_dir=self.instance.cache_dir,
                     plugins_dir_override=self.instance.plugins_dir,
                     assets_dir_override=self.instance.assets_dir)

    def folder(self) -> AppsFolder:
        return AppsFolder(apps_root(self.paths))


def make_instance(base: Path, section: dict[str, Any] | None = None) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    if section is not None:
        config["starlark-apps"] = section
    instance.write_config(config)
    return instance


@contextmanager
def web_daemon(base: Path, section: dict[str, Any] | None = None) -> Iterator[WebDaemon]:
    """Run the web daemon alone (no display: the web never needs it to install apps)."""
    instance = make_instance(base, section)
    daemon, url = start_web(instance, timeout=60)
    try:
        yield WebDaemon(instance, daemon, url)
    finally:
        daemon.stop()


def zipped(files: dict[str, bytes | str], top: str = "") -> bytes:
    """A ZIP of ``files`` (under one ``top`` folder when given), as a user would make it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, body in files.items():
            archive.writestr(f"{top}/{name}" if top else name, body)
    return buffer.getvalue()


def sample_files(name: str) -> dict[str, bytes]:
    """A sample app's files by path inside its folder."""
    folder = APPS / name
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}
