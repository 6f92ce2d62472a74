"""Store test fixtures; each part's fixtures carry its name (``registry_*``...)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from shared.paths import Paths
from tests.web_service.conftest import write_plugin
from tests.web_service.store.repo_host import RepoHost
from web_service.app import create_app
from web_service.settings import WebSettings


@pytest.fixture
def registry_host() -> Iterator[RepoHost]:
    """A loopback repository host that also serves registries."""
    with RepoHost() as host:
        yield host


@dataclass
class RegistryWeb:
    """A web app whose store points at ``host``: the registry at ``registry_url``."""

    paths: Paths
    app: Flask
    client: FlaskClient
    host: RepoHost
    registry_url: str

    def store_list(self, **params: str) -> dict:
        answer = self.client.get("/api/v3/plugins/store/list", query_string=params)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()["data"]


@pytest.fixture
def registry_web(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                 registry_host: RepoHost) -> RegistryWeb:
    """The web app with two installed plugins (clock 1.0.0, ticker), the registry URL and
    API base in the environment, as both daemons read them."""
    registry_url = f"{registry_host.url}/plugins.json"
    monkeypatch.setenv("LEDPANEL_REGISTRY_URL", registry_url)
    monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", registry_host.api_url)
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache",
                  plugins_dir_override=tmp_path / "plugin-repos")
    write_plugin(paths.plugins_dir(), "clock")
    write_plugin(paths.plugins_dir(), "ticker", schema=None)
    app = create_app(WebSettings(paths=paths, ack_timeout=0.5))
    app.extensions["ledpanel"].store.ensure()
    return RegistryWeb(paths, app, app.test_client(), registry_host, registry_url)
