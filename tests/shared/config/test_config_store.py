"""The config store: create, migrate, load with secrets, save, update, raw text."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from shared.config.backups import list_backups
from shared.config.store import ConfigStore
from shared.config.template import load_template
from shared.errors import AtomicWriteError, ConfigError, ValidationError
from shared.files.jsonfile import read_json_file


def _read(path: Any) -> Any:
    return json.loads(path.read_text())


def test_ensure_creates_the_config_from_the_template(store: ConfigStore) -> None:
    added = store.ensure()
    assert _read(store.paths.config_file) == load_template()
    assert set(added) == set(load_template())
    assert not store.paths.secrets_file.exists()
    assert store.ensure() == []
    assert list_backups(store.paths) == []


def test_ensure_migrates_and_keeps_stored_values_and_legacy_keys(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    stored = {
        "brightness": 12,
        "display": {"hardware": {"rows": 16}, "runtime": 4},
        "plugin_system": {"auto_discover": True, "development_mode": False},
        "target_fps": 120,
        "clock": {"enabled": True},
    }
    store.paths.config_file.write_text(json.dumps(stored))
    added = store.ensure()
    config = _read(store.paths.config_file)
    assert "display.hardware.cols" in added and "vegas_scroll" in added
    assert "brightness" not in added and "display.runtime.gpio_slowdown" not in added
    assert config["brightness"] == 12
    assert config["display"]["hardware"]["rows"] == 16
    assert config["display"]["hardware"]["cols"] == 64
    assert config["display"]["runtime"] == 4
    template = json.loads(store.paths.template_file.read_text())
    assert config["plugin_system"] == {
        **template["plugin_system"],
        "auto_discover": True,
        "development_mode": False,
        "plugins_directory": "plugin-repos",
    }
    assert config["target_fps"] == 120
    assert config["clock"] == {"enabled": True}
    assert len(list_backups(store.paths)) == 1
    assert store.ensure() == []


def test_load_merges_secrets_into_the_plugin_namespace(store: ConfigStore) -> None:
    store.ensure()
    store.update(lambda main, secrets: main.update(weather={"units": "metric"}))
    store.paths.secrets_file.write_text(
        json.dumps({"weather": {"api_key": "k"}, "github": {"token": "g"}})
    )
    config = store.load()
    assert config["weather"] == {"units": "metric", "api_key": "k"}
    assert "github" not in config
    assert "api_key" not in store.load_main()["weather"]
    assert store.load_secrets()["github"] == {"token": "g"}


def test_missing_secrets_file_loads_as_empty(store: ConfigStore) -> None:
    store.ensure()
    assert store.load_secrets() == {}
    assert store.load() == store.load_main()


def test_save_backs_up_and_writes_secrets_private_only_when_given(store: ConfigStore) -> None:
    store.ensure()
    main = store.load_main()
    main["brightness"] = 33
    store.save(main)
    assert not store.paths.secrets_file.exists()
    assert len(list_backups(store.paths)) == 1
    store.save(main, {"weather": {"api_key": "k"}})
    assert _read(store.paths.secrets_file) == {"weather": {"api_key": "k"}}
    assert stat.S_IMODE(store.paths.secrets_file.stat().st_mode) == 0o600
    assert _read(store.paths.config_file)["brightness"] == 33


def test_saving_a_loaded_config_keeps_secrets_out_of_the_main_file(store: ConfigStore) -> None:
    store.ensure()
    main = store.load_main()
    main["weather"] = {"units": "metric"}
    store.save(main, {"weather": {"api_key": "old"}})
    config = store.load()
    config["weather"]["api_key"] = "new"
    store.save(config)
    assert "api_key" not in _read(store.paths.config_file)["weather"]
    assert _read(store.paths.secrets_file) == {"weather": {"api_key": "new"}}


def test_update_reads_changes_and_saves_under_the_lock(store: ConfigStore) -> None:
    store.ensure()

    def change(main: dict, secrets: dict) -> tuple[dict, dict]:
        main["brightness"] = 5
        return main, {**secrets, "clock": {"token": "t"}}

    main, secrets = store.update(change)
    assert main["brightness"] == 5 == store.load_main()["brightness"]
    assert store.load_secrets() == secrets == {"clock": {"token": "t"}}


def test_update_that_raises_writes_nothing(store: ConfigStore) -> None:
    store.ensure()
    before = store.paths.config_file.read_bytes()

    def fail(main: dict, secrets: dict) -> None:
        main["brightness"] = 1
        raise ValidationError("no")

    with pytest.raises(ValidationError):
        store.update(fail)
    assert store.paths.config_file.read_bytes() == before
    assert list_backups(store.paths) == []


def test_update_that_changes_nothing_writes_nothing(store: ConfigStore) -> None:
    store.ensure()
    before = store.paths.config_file.stat()
    for _ in range(6):
        main, secrets = store.update(lambda main, secrets: None)
        assert main == load_template() and secrets == {}
    store.update(lambda main, secrets: (dict(main), dict(secrets)))
    after = store.paths.config_file.stat()
    assert list_backups(store.paths) == []
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert not store.paths.secrets_file.exists()


def test_update_tells_equal_values_of_another_type_apart(store: ConfigStore) -> None:
    store.ensure()
    store.update(lambda main, secrets: main.update(brightness=1))
    store.update(lambda main, secrets: main.update(brightness=True))
    assert _read(store.paths.config_file)["brightness"] is True
    assert len(list_backups(store.paths)) == 2


def test_update_of_the_secrets_alone_rewrites_only_the_secrets(store: ConfigStore) -> None:
    store.ensure()
    inode = store.paths.config_file.stat().st_ino
    main, secrets = store.update(lambda main, secrets: secrets.update(clock={"token": "t"}))
    assert _read(store.paths.secrets_file) == secrets == {"clock": {"token": "t"}}
    assert stat.S_IMODE(store.paths.secrets_file.stat().st_mode) == 0o600
    assert store.paths.config_file.stat().st_ino == inode
    assert list_backups(store.paths) == []


def test_update_creates_a_missing_config_even_when_nothing_changes(store: ConfigStore) -> None:
    main, _ = store.update(lambda main, secrets: None)
    assert _read(store.paths.config_file) == main == load_template()


def test_read_text_returns_the_file_as_stored_even_when_it_is_not_json(
    store: ConfigStore,
) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_text('{"brightness": 10,,}', encoding="utf-8")
    assert store.read_text() == '{"brightness": 10,,}'


def test_read_text_of_a_missing_config_is_the_template_text(store: ConfigStore) -> None:
    assert json.loads(store.read_text()) == load_template()
    assert not store.paths.config_file.exists()


def test_read_text_of_a_config_that_is_not_utf8_is_a_clear_config_error(
    store: ConfigStore,
) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_bytes(b'{\n  "timezone": "M\xfcnchen"\n}\n')
    with pytest.raises(ConfigError) as caught:
        store.read_text()
    error = caught.value
    assert "config.json is not UTF-8" in error.message
    assert "line 2, column 17" in error.message and "backup" in error.message
    assert error.details["line"] == 2 and error.details["column"] == 17


def test_config_that_is_not_utf8_is_reported_with_its_position(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_bytes(b'{\n  "timezone": "M\xfcnchen"\n}\n')
    with pytest.raises(ConfigError) as caught:
        store.load()
    assert caught.value.error_code == "CONFIG_INVALID_JSON"
    assert "config.json" in caught.value.message and "UTF-8" in caught.value.message
    assert (caught.value.details["line"], caught.value.details["column"]) == (2, 17)


def test_corrupt_template_is_reported_with_line_and_column(tmp_path: Path) -> None:
    template = tmp_path / "config.template.json"
    template.write_text('{\n  "brightness": 90,\n}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_template(template)
    error = caught.value
    assert error.error_code == "CONFIG_INVALID_JSON"
    assert "config template config.template.json is not valid JSON" in error.message
    assert (error.details["line"], error.details["column"]) == (2, 19)  # the comma
    assert "trailing comma before the end of the object" in error.message
    template.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        load_template(template)


def test_read_json_file_names_what_it_read(tmp_path: Path) -> None:
    path = tmp_path / "thing.json"
    with pytest.raises(ConfigError) as caught:
        read_json_file(path, "thing file")
    assert caught.value.error_code == "FILE_NOT_FOUND"
    assert caught.value.message.startswith("thing file thing.json not found")
    path.write_text("[1, 2]", encoding="utf-8")
    assert read_json_file(path, "thing file") == [1, 2]
    path.write_text("1" * 5000, encoding="utf-8")
    with pytest.raises(ConfigError, match="thing.json"):
        read_json_file(path, "thing file")


def test_corrupt_config_is_a_readable_config_error(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_text('{\n  "brightness": 10,\n  "timezone": \n}\n')
    with pytest.raises(ConfigError) as caught:
        store.load()
    message = caught.value.message
    assert "config.json is not valid JSON" in message
    assert "line 4" in message and "column 1" in message
    assert "Traceback" not in message
    assert caught.value.details["line"] == 4


def test_ensure_never_overwrites_a_corrupt_config(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_text("{ not json")
    with pytest.raises(ConfigError):
        store.ensure()
    assert store.paths.config_file.read_text() == "{ not json"


def test_config_that_is_not_an_object_is_a_config_error(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="must hold a JSON object"):
        store.load_main()


def test_corrupt_secrets_file_is_a_config_error(store: ConfigStore) -> None:
    store.ensure()
    store.paths.secrets_file.write_text("{,}")
    with pytest.raises(ConfigError, match="config_secrets.json is not valid JSON"):
        store.load()


def test_ensure_removes_temp_files_left_by_killed_writers(store: ConfigStore) -> None:
    store.ensure()
    stale = store.paths.config_dir / ".config.json.abc123.tmp"
    stale.write_text("{")
    other = store.paths.config_dir / ".wifi_config.json.abc.tmp"
    other.write_text("{")
    store.ensure()
    assert not stale.exists()
    assert other.exists()


def _age(path: Path, seconds: float = 60.0) -> None:
    import os
    import time

    stamp = time.time() - seconds
    os.utime(path, (stamp, stamp))


def test_load_main_parses_once_per_change_and_hands_out_copies(
    store: ConfigStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shared.config.store as store_module

    store.ensure()
    _age(store.paths.config_file)
    reads: list[Path] = []
    original = store_module.read_json_file
    monkeypatch.setattr(store_module, "read_json_file",
                        lambda path, what: reads.append(path) or original(path, what))
    first = store.load_main()
    first["brightness"] = 1  # a caller's own copy
    first["display"]["hardware"]["rows"] = 8
    second = store.load_main()
    assert second["brightness"] == 90 and second["display"]["hardware"]["rows"] == 32
    assert store.main_snapshot().data["brightness"] == 90
    assert reads.count(store.paths.config_file) == 1
    # A save gives the file a new identity: read again, never stale.
    store.update(lambda main, secrets: main.update(brightness=44))
    assert store.load_main()["brightness"] == 44


def test_a_config_rewritten_within_one_timestamp_tick_is_read_again(store: ConfigStore) -> None:
    store.ensure()
    text = store.paths.config_file.read_text()
    for value in (11, 12, 13):  # same inode, same size, maybe the same mtime
        edited = text.replace('"brightness": 90', f'"brightness": {value}')
        store.paths.config_file.write_text(edited)
        assert store.load_main()["brightness"] == value
        assert store.main_snapshot().data["brightness"] == value


def test_update_returns_the_main_config_as_written(store: ConfigStore) -> None:
    store.ensure()
    store.paths.secrets_file.write_text(json.dumps({"clock": {"token": "t"}}))
    main, _ = store.update(lambda main, secrets: main.update(
        clock={"token": "leaked?", "units": "metric"}))
    assert main["clock"] == {"units": "metric"}
    assert main == _read(store.paths.config_file)


def test_raw_text_and_parsed_reads_report_bad_utf8_alike(store: ConfigStore) -> None:
    store.paths.config_dir.mkdir(parents=True)
    store.paths.config_file.write_bytes(b'{\n  "timezone": "M\xfcnchen"\n}\n')
    errors = []
    for read in (store.read_text, store.load_main):
        with pytest.raises(ConfigError) as caught:
            read()
        errors.append(caught.value)
    for error in errors:
        assert error.error_code == "CONFIG_INVALID_JSON"
        assert "config.json is not UTF-8 text: byte 0xfc at line 2, column 17" in error.message
        assert error.details == {"file": str(store.paths.config_file), "line": 2, "column": 17}
    assert "backup" in errors[0].message


@pytest.mark.parametrize("secrets_existed", [True, False])
def test_a_save_that_fails_leaves_both_files_exactly_as_they_were(
        store: ConfigStore, monkeypatch: pytest.MonkeyPatch, secrets_existed: bool) -> None:
    store.ensure()
    if secrets_existed:
        store.paths.secrets_file.write_text('{"clock": {"api_key": "old"}}')
    main_before = store.paths.config_file.read_bytes()
    secrets_before = store.paths.secrets_file.read_bytes() if secrets_existed else None

    def full_disk(_main: Any) -> None:
        raise AtomicWriteError("could not write config.json: No space left on device")

    monkeypatch.setattr(store, "_write_main", full_disk)

    def change(main: dict, secrets: dict) -> tuple[dict, dict]:
        main["brightness"] = 42
        secrets["clock"] = {"api_key": "new"}
        return main, secrets

    with pytest.raises(AtomicWriteError, match="No space left"):
        store.update(change)
    assert store.paths.config_file.read_bytes() == main_before
    if secrets_existed:
        assert store.paths.secrets_file.read_bytes() == secrets_before
    else:
        assert not store.paths.secrets_file.exists()


def test_a_save_failing_outside_the_write_still_puts_the_secrets_back(
        store: ConfigStore, monkeypatch: pytest.MonkeyPatch) -> None:
    import shared.config.store as store_module

    store.ensure()
    store.paths.secrets_file.write_text('{"clock": {"api_key": "old"}}')
    before = (store.paths.config_file.read_bytes(), store.paths.secrets_file.read_bytes())

    def broken_backups(*_args: Any, **_kwargs: Any) -> None:
        raise ValueError("time data '20261399' does not match format")

    monkeypatch.setattr(store_module, "make_backup", broken_backups)
    with pytest.raises(ValueError):
        store.update(lambda main, secrets: ({**main, "brightness": 7},
                                            {**secrets, "clock": {"api_key": "new"}}))
    assert (store.paths.config_file.read_bytes(), store.paths.secrets_file.read_bytes()) == before
