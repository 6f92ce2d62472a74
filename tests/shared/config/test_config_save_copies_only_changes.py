"""A save plan over the shared config snapshot copies only what it changes and changes
nothing it was given: every other reader of the snapshot keeps seeing the file as read."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from shared.config.save_rules import plan_main_save
from shared.config.secrets import keep_secrets_secret
from shared.config.store import ConfigStore

SCHEMA = {"type": "object", "properties": {
    "enabled": {"type": "boolean", "default": False},
    "message": {"type": "string", "default": "hi"},
    "api_key": {"type": "string", "x-secret": True, "default": ""}}}


@pytest.fixture(autouse=True)
def snapshots_shared_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a file just written be served from the snapshot cache, as a settled one is."""
    monkeypatch.setattr("shared.config.store.RACY_WINDOW_NS", 0)


def _with_plugins(store: ConfigStore, count: int) -> None:
    store.ensure()
    main = store.load_main()
    for index in range(count):
        main[f"p{index}"] = {"enabled": True, "message": f"m{index}"}
    store.save(main)


def _plan(body: dict[str, Any]) -> Any:
    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
        new_main, new_secrets, _ = plan_main_save(main, secrets, body, form=False,
                                                  schema_for=lambda _id: SCHEMA)
        return new_main, new_secrets
    return plan


def test_a_brightness_save_leaves_the_snapshot_it_was_planned_from_as_read(store):
    _with_plugins(store, 3)
    snapshot = store.main_snapshot()
    assert store.main_snapshot() is snapshot  # the plan below is given this very object
    before = copy.deepcopy(snapshot.data)
    store.update(_plan({"brightness": 55}), pure=True)
    assert snapshot.data == before  # display.hardware.brightness was set on a copy
    written = json.loads(store.paths.config_file.read_text())
    assert written["brightness"] == 55 and written["display"]["hardware"]["brightness"] == 55
    assert {k: written[k] for k in ("p0", "p1", "p2")} == {k: before[k] for k in ("p0", "p1",
                                                                                  "p2")}


def test_a_plugin_save_with_a_secret_leaves_snapshot_and_secrets_as_read(store):
    _with_plugins(store, 3)
    store.paths.secrets_file.write_text('{"p1": {"api_key": "old"}}')
    snapshot = store.main_snapshot()
    before = copy.deepcopy(snapshot.data)
    main, secrets = store.update(_plan({"p1": {"message": "new", "api_key": "s3cret"}}),
                                 pure=True)
    assert snapshot.data == before
    written = json.loads(store.paths.config_file.read_text())
    assert written["p1"] == {"enabled": True, "message": "new"}
    assert json.loads(store.paths.secrets_file.read_text()) == {"p1": {"api_key": "s3cret"}}
    assert "s3cret" not in store.paths.config_file.read_text()


def test_keeping_secrets_secret_changes_neither_argument():
    main = {"p1": {"message": "x", "api_key": "typed"}, "p2": {"message": "y"}}
    secrets = {"p1": {"api_key": "old"}}
    main_before, secrets_before = copy.deepcopy(main), copy.deepcopy(secrets)
    new_main, new_secrets = keep_secrets_secret(main, secrets)
    assert (main, secrets) == (main_before, secrets_before)
    assert new_main == {"p1": {"message": "x"}, "p2": {"message": "y"}}
    assert new_secrets == {"p1": {"api_key": "typed"}}
