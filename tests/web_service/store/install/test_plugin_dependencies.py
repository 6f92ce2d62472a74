"""A plugin's requirements go into its own folder, with real pip, offline: never into the
environment the daemons share, never a .pth file, never past the core's pins."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemons import ROOT
from tests.web_service.store.install_support import leftovers, mono_source, push_mono, tree_hash
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.wheels import (
    build_wheel,
    offline_pip_env,
    remove_from_shared_environment,
)
from web_service.store.errors import StoreError
from web_service.store.install.folders import install_plugin, uninstall_plugin

pytestmark = pytest.mark.timeout(180)

PROBE = "ledpanel_probe_dep"
TEST_DISTRIBUTIONS = ("ledpanel-probe-dep", "ledpanel-pth-probe", "ledpanel-innocent",
                      "ledpanel-old-flask-user")


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        yield running


@pytest.fixture
def wheels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of wheels pip installs from, and nothing else (its environment says so).

    Should an install ever reach the shared environment (the bug these tests catch), the
    test distributions are taken out of it again afterwards.
    """
    folder = tmp_path / "wheels"
    for version in ("1.0", "2.0"):
        build_wheel(folder, "ledpanel-probe-dep", version,
                    {f"{PROBE}/__init__.py": f"VALUE = {version!r}\n"})
    build_wheel(folder, "ledpanel-pth-probe", "1.0", {
        "ledpanel_pth_probe.pth": f"import os; open({str(tmp_path / 'pth-ran')!r}, 'w')\n",
        "ledpanel_pth_probe_mod.py": "VALUE = 1\n"})
    build_wheel(folder, "ledpanel-innocent", "1.0", {"ledpanel_innocent.py": ""},
                requires=("ledpanel-pth-probe",))
    build_wheel(folder, "ledpanel-old-flask-user", "1.0", {"ledpanel_old_flask_user.py": ""},
                requires=("Flask<1",))
    for key, value in offline_pip_env(folder).items():
        monkeypatch.setenv(key, value)
    yield folder
    remove_from_shared_environment(*TEST_DISTRIBUTIONS)


def _fresh_python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new interpreter of the daemons' environment, as a daemon starts."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def _install(host: RepoHost, plugins_dir: Path, requirements: str, version: str = "1.0.0"
             ) -> None:
    push_mono(host, "clock", version=version, requirements=requirements)
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                   python=sys.executable, pip_timeout=120)


def test_a_dependency_goes_into_the_plugin_folder_and_leaves_with_it(
        host: RepoHost, wheels: Path, tmp_path: Path) -> None:
    plugins_dir = tmp_path / "plugin-repos"
    _install(host, plugins_dir, "ledpanel-probe-dep==1.0\nrequests>=2\n")
    deps = plugins_dir / "clock" / ".ledpanel-deps"
    assert (deps / PROBE / "__init__.py").read_text() == "VALUE = '1.0'\n"
    assert not (deps / "requests").exists(), "what the core provides is not installed again"
    found = _fresh_python(f"import {PROBE}")
    assert found.returncode == 1 and "ModuleNotFoundError" in found.stderr, \
        "the shared environment (the web daemon's) does not have it"
    with pytest.raises(importlib.metadata.PackageNotFoundError):
        importlib.metadata.version("ledpanel-probe-dep")

    _install(host, plugins_dir, "ledpanel-probe-dep==2.0\n", version="2.0.0")
    assert (deps / PROBE / "__init__.py").read_text() == "VALUE = '2.0'\n"
    assert sorted(p.name for p in deps.glob("*.dist-info")) == \
        ["ledpanel_probe_dep-2.0.dist-info"], "an update replaces the folder"

    uninstall_plugin("clock", [plugins_dir])
    assert not deps.exists() and not (plugins_dir / "clock").exists()


@pytest.mark.parametrize("requirement", ["ledpanel-pth-probe", "ledpanel-innocent"])
def test_a_package_shipping_a_pth_file_is_refused_and_never_runs(
        host: RepoHost, wheels: Path, tmp_path: Path, requirement: str) -> None:
    plugins_dir = tmp_path / "plugin-repos"
    with pytest.raises(StoreError) as caught:
        _install(host, plugins_dir, f"{requirement}\n")
    assert caught.value.error_code == "UNSAFE_REQUIREMENTS"
    assert "ledpanel_pth_probe.pth, a .pth file" in caught.value.message
    assert list(plugins_dir.iterdir()) == []
    assert _fresh_python("import sys; print(sys.path)").returncode == 0
    assert not (tmp_path / "pth-ran").exists(), "no interpreter ran the .pth file"


def test_a_dependency_needing_another_version_of_a_core_package_is_refused(
        host: RepoHost, wheels: Path, tmp_path: Path) -> None:
    plugins_dir = tmp_path / "plugin-repos"
    _install(host, plugins_dir, "ledpanel-probe-dep==1.0\n")
    before = tree_hash(plugins_dir)
    flask = importlib.metadata.version("flask")
    with pytest.raises(StoreError) as caught:
        _install(host, plugins_dir, "ledpanel-old-flask-user\n", version="2.0.0")
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert "flask" in caught.value.message.lower()
    assert tree_hash(plugins_dir) == before and leftovers(plugins_dir) == []
    assert importlib.metadata.version("flask") == flask


def test_a_download_holding_the_dependency_folder_is_refused(
        host: RepoHost, wheels: Path, tmp_path: Path) -> None:
    plugins_dir = tmp_path / "plugin-repos"
    push_mono(host, "clock", extra={".ledpanel-deps/evil.pth": b"import os\n"})
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url,
                       python=sys.executable)
    assert caught.value.error_code == "UNSAFE_REQUIREMENTS"
    assert ".ledpanel-deps" in caught.value.message
    assert list(plugins_dir.iterdir()) == []
