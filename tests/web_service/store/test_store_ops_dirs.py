"""Store operations in both plugin directories (configured and development ``plugins/``),
the update of every plugin, and the web's start-up recovery of an interrupted swap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import web_service.store.update as store_update
from tests.daemons import ROOT, Instance, start_web
from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.ops_daemons import MONO, OWNER, push_plugin, serve_registry
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.errors import StoreError
from web_service.store.install.folders import install_plugin, read_record
from web_service.store.registry.catalog import current_registry
from web_service.store.update import update_all_plugins, update_plugin
from web_service.store.work import (
    registry_source,
    store_context,
    uninstall_work,
)

pytestmark = pytest.mark.timeout(120)


def _install(web: RegistryWeb, plugin_id: str, folder: Path) -> None:
    ctx = store_context(web.app.extensions["ledpanel"])
    entry = current_registry(web.app.extensions["ledpanel"]).find(plugin_id)
    assert entry is not None
    install_plugin(registry_source(entry, plugin_id), folder, api_url=ctx.api_url)


def _noop(progress: dict) -> None:
    return None


def test_updates_reach_the_development_directory_and_never_follow_a_link(
        registry_web: RegistryWeb, tmp_path: Path) -> None:
    host = registry_web.host
    for plugin_id in ("devpl", "linked"):
        push_plugin(host, plugin_id)
    serve_registry(host, "devpl", "linked")
    svc = registry_web.app.extensions["ledpanel"]
    dev = registry_web.paths.dev_plugins_dir
    _install(registry_web, "devpl", dev)
    checkout = tmp_path / "checkout" / "linked"
    checkout.mkdir(parents=True)
    for name, data in plugin_files("linked").items():
        (checkout / name).write_bytes(data)
    (dev / "linked").symlink_to(checkout)

    push_plugin(host, "devpl", version="1.2.0")
    push_plugin(host, "linked", version="9.0.0")
    ctx = store_context(svc)
    result = update_plugin(ctx, "devpl", lambda i: current_registry(svc).find(i), _noop)
    assert (result["update_status"], result["version"]) == ("updated", "1.2.0")
    assert read_record(dev / "devpl")["version"] == "1.2.0"  # type: ignore[index]
    assert result["display"] is None and result["display_note"]
    assert not (registry_web.paths.plugins_dir() / "devpl").exists()

    result = update_plugin(ctx, "linked", lambda i: current_registry(svc).find(i), _noop)
    assert result["update_status"] == "local_only"
    assert json.loads((checkout / "manifest.json").read_text())["version"] == "1.0.0"

    outcome = uninstall_work(svc, "linked", False)(_noop)
    assert outcome["removed_from"] == str(dev)
    assert not (dev / "linked").exists() and (checkout / "manager.py").is_file()


def test_update_all_reports_every_plugin_and_goes_on_after_a_failure(
        registry_web: RegistryWeb) -> None:
    host = registry_web.host
    for plugin_id in ("one", "two", "three"):
        push_plugin(host, plugin_id)
    serve_registry(host, "one", "two", "three")
    plugins = registry_web.paths.plugins_dir()
    for plugin_id in ("one", "two", "three"):
        _install(registry_web, plugin_id, plugins)
    push_plugin(host, "one", version="1.5.0")
    # a requirement pip refuses against the core's pins (a URL line is refused earlier,
    # as UNSAFE_REQUIREMENTS, before pip runs)
    push_plugin(host, "two", version="2.0.0", requirements="Flask<1\n")
    steps: list[dict] = []
    results = update_all_plugins(registry_web.app, source="manual", report=steps.append)
    by_id = {r["plugin_id"]: r for r in results}
    assert by_id["one"]["update_status"] == "updated"
    assert by_id["two"]["error_code"] == "DEPENDENCIES_FAILED"
    assert by_id["three"]["update_status"] == "up_to_date"
    assert by_id["clock"]["update_status"] == "local_only"  # copied in by the fixture
    assert read_record(plugins / "two")["version"] == "1.0.0"  # type: ignore[index]
    assert any(step.get("step") == "updating two" for step in steps)


def test_update_all_lists_a_monorepo_once_for_all_its_plugins(
        registry_web: RegistryWeb) -> None:
    host = registry_web.host
    ids = ("one", "two", "three")
    for plugin_id in ids:
        push_plugin(host, plugin_id)
    serve_registry(host, *ids)
    plugins = registry_web.paths.plugins_dir()
    for plugin_id in ids:
        _install(registry_web, plugin_id, plugins)
    before = host.asked("/git/trees/")
    results = update_all_plugins(registry_web.app, source="manual")
    assert {r["plugin_id"]: r["update_status"] for r in results if r["plugin_id"] in ids} \
        == dict.fromkeys(ids, "up_to_date")
    assert host.asked("/git/trees/") - before == 1


def test_the_web_finishes_an_interrupted_swap_when_it_starts(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    instance.write_config(config)
    trash = instance.plugins_dir / ".store-trash" / "weather-20260101T000000xabc123"
    trash.mkdir(parents=True)
    for name, data in plugin_files("weather").items():
        (trash / name).write_bytes(data)
    web, _url = start_web(instance)
    try:
        assert (instance.plugins_dir / "weather" / "manifest.json").is_file()
        assert not (instance.plugins_dir / ".store-trash").exists()
    finally:
        web.stop()
    assert "restored the previous folder" in web.output()


def test_an_unknown_registry_plugin_is_not_found(registry_web: RegistryWeb) -> None:
    serve_registry(registry_web.host)
    answer = registry_web.client.post("/api/v3/plugins/install",
                                      json={"plugin_id": "ghost", "wait": 30})
    assert answer.status_code == 404
    assert answer.get_json()["error_code"] == "PLUGIN_NOT_FOUND"
    assert registry_web.host.asked(f"/{OWNER}/{MONO}") == 0


def test_the_weekly_run_leaves_a_hand_copied_plugin_alone_a_manual_run_updates_it(
        registry_web: RegistryWeb) -> None:
    host = registry_web.host
    push_plugin(host, "brought")  # 1.0.0, as the registry says
    serve_registry(host, "brought")
    copied = registry_web.paths.plugins_dir() / "brought"
    copied.mkdir(parents=True)
    for name, data in plugin_files("brought", version="0.9.0").items():
        (copied / name).write_bytes(data)
    (copied / "my-notes.txt").write_text("edited by hand")

    results = update_all_plugins(registry_web.app, source="auto_update")
    outcome = {r["plugin_id"]: r for r in results}["brought"]
    assert outcome["update_status"] == "local_only"
    assert (copied / "my-notes.txt").read_text() == "edited by hand"
    assert read_record(copied) is None

    results = update_all_plugins(registry_web.app, source="manual")
    outcome = {r["plugin_id"]: r for r in results}["brought"]
    assert (outcome["update_status"], outcome["version"]) == ("updated", "1.0.0")
    assert read_record(copied)["source"] == "registry"  # type: ignore[index]


def test_an_old_folder_that_cannot_be_removed_is_a_warning_of_a_done_update(
        registry_web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    host = registry_web.host
    push_plugin(host, "moved")
    serve_registry(host, "moved")
    plugins = registry_web.paths.plugins_dir()
    _install(registry_web, "moved", plugins)
    (plugins / "moved").rename(plugins / "ledpanel-moved")
    push_plugin(host, "moved", version="1.1.0")

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise StoreError("moved is busy", "BUSY")

    monkeypatch.setattr(store_update, "uninstall_plugin", refuse)
    svc = registry_web.app.extensions["ledpanel"]
    result = update_plugin(store_context(svc), "moved", lambda i: current_registry(svc).find(i),
                           _noop)
    assert (result["update_status"], result["version"]) == ("updated", "1.1.0")
    assert any("ledpanel-moved/ is still there" in w for w in result["warnings"])
    assert "remove it by hand" in result["message"]
    assert read_record(plugins / "moved")["version"] == "1.1.0"  # type: ignore[index]
