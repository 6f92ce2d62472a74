"""Directory resolution: flags over environment over defaults; unwritable is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.errors import CacheDirError
from shared.paths import ROOT, ensure_writable_dir, resolve_paths


def test_defaults_are_folders_under_the_checkout():
    paths = resolve_paths(env={})
    assert paths.config_dir == ROOT / "config"
    assert paths.cache_dir == ROOT / "var" / "cache"
    assert paths.plugins_dir() == ROOT / "plugin-repos"
    assert paths.dev_plugins_dir == ROOT / "plugins"


def test_environment_overrides_defaults(tmp_path):
    env = {"LEDPANEL_CONFIG_DIR": str(tmp_path / "c"), "LEDPANEL_CACHE_DIR": str(tmp_path / "b"),
           "LEDPANEL_PLUGINS_DIR": str(tmp_path / "p")}
    paths = resolve_paths(env=env)
    assert (paths.config_dir, paths.cache_dir, paths.plugins_dir("ignored")) == (
        tmp_path / "c", tmp_path / "b", tmp_path / "p")


def test_flags_override_environment(tmp_path):
    env = {"LEDPANEL_CACHE_DIR": str(tmp_path / "env")}
    assert resolve_paths(cache_dir=tmp_path / "flag", env=env).cache_dir == tmp_path / "flag"


def test_systemd_cache_directory_is_used_when_nothing_else_is_set(tmp_path):
    paths = resolve_paths(env={"CACHE_DIRECTORY": str(tmp_path / "ledpanel")})
    assert paths.cache_dir == tmp_path / "ledpanel"


def test_configured_plugins_directory_resolves_against_the_root(tmp_path):
    paths = resolve_paths(env={}, root=tmp_path)
    assert paths.plugins_dir("my-plugins") == tmp_path / "my-plugins"
    assert paths.plugins_dir("/abs/plugins") == Path("/abs/plugins")


def test_unwritable_cache_dir_is_an_error_not_a_fallback(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(CacheDirError) as caught:
        ensure_writable_dir(blocker / "bus")
    assert str(blocker / "bus") in caught.value.message


def test_writable_cache_dir_is_created(tmp_path):
    assert ensure_writable_dir(tmp_path / "new" / "bus").is_dir()
