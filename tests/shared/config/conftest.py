"""Fixtures: an isolated config directory and a store over it."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.config.store import ConfigStore
from shared.paths import Paths, resolve_paths


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    return resolve_paths(config_dir=tmp_path / "config", cache_dir=tmp_path / "cache", env={})


@pytest.fixture
def store(paths: Paths) -> ConfigStore:
    return ConfigStore(paths, lock_timeout=5.0)
