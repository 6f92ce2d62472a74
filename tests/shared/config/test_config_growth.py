"""The config cannot grow without bound: core sections hold known keys only, plugin
sections and the files have a size limit, on every save path and for hand edits."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from shared.config.check import config_problems
from shared.config.raw_save import plan_raw_save
from shared.config.save_rules import plan_main_save
from shared.config.sizes import MAX_FILE_BYTES, MAX_SECTION_BYTES, file_size
from shared.config.store import ConfigStore
from shared.config.template import load_template
from shared.errors import LedpanelError

SCHEMA = {"type": "object", "properties": {"enabled": {"type": "boolean"}}}
PLUGINS = ("clock", "news", "weather", "stocks", "sports")


def schema_for(plugin_id: str) -> dict[str, Any]:
    return SCHEMA


def stored() -> dict[str, Any]:
    return {**load_template(), **{p: {"enabled": True} for p in PLUGINS}}


def refusal(body: dict[str, Any], *, raw: bool = False) -> LedpanelError:
    main = stored()
    with pytest.raises(LedpanelError) as caught:
        if raw:
            plan_raw_save(main, {**copy.deepcopy(main), **body}, schema_for=schema_for,
                          plugin_ids=PLUGINS)
        else:
            plan_main_save(main, {}, body, form=False, schema_for=schema_for,
                           plugin_ids=PLUGINS)
    return caught.value


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize(("body", "key", "suggestion"), [
    ({"display": {"hardwre": {"rows": 32}}}, "display.hardwre", "display.hardware"),
    ({"display": {"hardware": {"rowz": 32}}}, "display.hardware.rowz", "display.hardware.rows"),
    ({"vegas_scroll": {"junk": "x" * 1000}}, "vegas_scroll.junk", None),
    ({"web": {"port": 5000, "extra": {"deep": 1}}}, "web.extra", None),
])
def test_unknown_keys_in_core_sections_are_refused_naming_them(body, key, suggestion, raw):
    err = refusal(body, raw=raw)
    assert err.error_code == "UNKNOWN_KEY" and err.status == 400
    assert err.message.startswith(f"{key}: not a known setting")
    assert err.details["suggestion"] == suggestion
    if suggestion:
        assert f"did you mean {suggestion}?" in err.message


def test_legacy_keys_and_user_named_durations_are_still_accepted():
    main = stored()
    body = {"plugin_system": {"auto_discover": True}, "target_fps": 60,
            "display_durations": {"clock": 15, "my_own_mode": 30}}
    new_main, _, changed = plan_main_save(main, {}, body, form=False, schema_for=schema_for,
                                          plugin_ids=PLUGINS)
    assert new_main["display_durations"]["my_own_mode"] == 30
    assert set(changed) == {"plugin_system", "target_fps", "display_durations"}


def test_an_unknown_key_already_stored_blocks_no_other_change():
    main = stored()
    main["display"]["old_setting"] = 1  # written by an older version
    new = copy.deepcopy(main)
    new["display"]["hardware"]["rows"] = 16
    assert config_problems(new, stored=main, template=load_template()) == []
    assert [e.error_code for e in config_problems(new, template=load_template())] == [
        "UNKNOWN_KEY"]


@pytest.mark.parametrize("raw", [False, True])
def test_a_plugin_section_past_its_limit_is_refused_with_the_figures(raw):
    err = refusal({"clock": {"enabled": True, "blob": "x" * MAX_SECTION_BYTES}}, raw=raw)
    assert err.error_code == "CONFIG_TOO_LARGE" and err.status == 413
    assert "plugin section clock" in err.message and "256 KiB allowed" in err.message
    assert err.details["limit"] == MAX_SECTION_BYTES
    assert err.details["size"] > MAX_SECTION_BYTES


@pytest.mark.parametrize("raw", [False, True])
def test_the_whole_file_past_its_limit_is_refused(raw):
    blob = "x" * (MAX_SECTION_BYTES - 1000)
    body = {p: {"enabled": True, "blob": blob} for p in PLUGINS}
    err = refusal(body, raw=raw)
    assert err.error_code == "CONFIG_TOO_LARGE"
    assert err.message.startswith("config.json would be") and "1024 KiB allowed" in err.message


def test_a_file_already_too_large_may_shrink(store: ConfigStore):
    big = {**stored(), **{p: {"blob": "x" * (MAX_SECTION_BYTES - 1000)} for p in PLUGINS}}
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_text(json.dumps(big))
    assert file_size(big) > MAX_FILE_BYTES
    shrunk = copy.deepcopy(big)
    del shrunk["news"]["blob"]
    problems = config_problems(shrunk, stored=big, template=load_template())
    assert problems == []
    store.update(lambda main, secrets: (shrunk, secrets))
    with pytest.raises(LedpanelError) as caught:  # growing again is not
        store.update(lambda main, secrets: (big, secrets))
    assert caught.value.error_code == "CONFIG_TOO_LARGE"


def test_the_store_refuses_an_oversized_secrets_file(store: ConfigStore):
    store.ensure()
    secrets = {p: {"key": "x" * (MAX_SECTION_BYTES - 1000)} for p in PLUGINS}
    with pytest.raises(LedpanelError) as caught:
        store.update(lambda main, _secrets: (main, secrets))
    assert caught.value.error_code == "CONFIG_TOO_LARGE"
    assert "config_secrets.json" in caught.value.message
    assert not store.paths.secrets_file.exists()


def test_a_hand_edit_past_a_limit_is_reported_like_other_problems():
    main = stored()
    edited = {**copy.deepcopy(main), "clock": {"blob": "x" * MAX_SECTION_BYTES},
              "display": {**main["display"], "bogus": True}}
    codes = {e.error_code for e in config_problems(edited, stored=main,
                                                   template=load_template())}
    assert codes == {"CONFIG_TOO_LARGE", "UNKNOWN_KEY"}
