"""Both real daemons over a temporary instance whose store points at a ``RepoHost``,
and the calls the store-operation tests make on them."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Daemon, Instance, running
from tests.display_service.helpers import wait_until
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry

OWNER, MONO = "acme", "ledpanel-plugins"


@dataclass
class OpsStack:
    """The running daemons, their instance and the repository host they use."""

    instance: Instance
    host: RepoHost
    url: str
    display: Daemon
    web: Daemon

    def post(self, route: str, body: dict[str, Any], timeout: float = 70) -> requests.Response:
        return requests.post(f"{self.url}/api/v3/plugins/{route}", json=body, timeout=timeout)

    def job(self, job_id: str) -> dict[str, Any]:
        answer = requests.get(f"{self.url}/api/v3/plugins/store/jobs/{job_id}", timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()["data"]

    def finished(self, job_id: str, timeout: float = 120) -> dict[str, Any]:
        """Wait for a job to end; return it."""
        found: dict[str, Any] = {}

        def ended() -> bool:
            found.update(self.job(job_id))
            return found["state"] in ("done", "failed")

        wait_until(ended, timeout=timeout)
        return found

    def run(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        """Start an operation (answered at once) and return its finished job."""
        answer = self.post(route, {**body, "wait": 0})
        assert answer.status_code == 202, answer.text
        return self.finished(answer.json()["data"]["job_id"])

    def config(self) -> dict[str, Any]:
        return json.loads((self.instance.config_dir / "config.json").read_text())

    def secrets(self) -> dict[str, Any]:
        path = self.instance.config_dir / "config_secrets.json"
        return json.loads(path.read_text()) if path.is_file() else {}

    def state(self) -> dict[str, Any]:
        return Bus(self.instance.cache_dir).read(keys.DISPLAY_STATE) or {}

    def installed_ids(self) -> list[str]:
        answer = requests.get(f"{self.url}/api/v3/plugins/installed", timeout=10)
        return [record["id"] for record in answer.json()["data"]]


def push_plugin(host: RepoHost, plugin_id: str, **kwargs: Any) -> str:
    """Put ``plugin_id`` in the monorepo at ``plugins/<id>``; return the head."""
    return host.push(OWNER, MONO, plugin_files(plugin_id, **kwargs),
                     under=f"plugins/{plugin_id}", replace=True)


def serve_registry(host: RepoHost, *plugin_ids: str) -> str:
    """Serve a registry listing ``plugin_ids`` from the monorepo; return its URL."""
    repo = host.repo_url(OWNER, MONO)
    return host.serve("plugins.json", registry(*(
        registry_entry(p, repo, plugin_path=f"plugins/{p}") for p in plugin_ids)))


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    instance.write_config(config)
    return instance


@contextmanager
def ops_stack(base: Path, host: RepoHost) -> Iterator[OpsStack]:
    """Run both daemons with the store's URLs pointing at ``host`` (set in the environment
    the daemons inherit, restored afterwards)."""
    saved = {k: os.environ.get(k) for k in ("LEDPANEL_REGISTRY_URL",
                                           "LEDPANEL_REPOSITORY_API_URL")}
    os.environ["LEDPANEL_REGISTRY_URL"] = f"{host.url}/plugins.json"
    os.environ["LEDPANEL_REPOSITORY_API_URL"] = host.api_url
    instance = make_instance(base)
    try:
        with running(instance) as (display, web, url):
            stack = OpsStack(instance, host, url, display, web)
            wait_until(lambda: stack.state().get("service") == "running", timeout=60)
            yield stack
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

