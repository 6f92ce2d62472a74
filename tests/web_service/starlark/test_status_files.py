"""The display's render record and previews, read as untrusted files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.starlark.installed.render_status import preview_path
from web_service.starlark.status import read_preview, render_records

WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8L" + bytes(24)


def test_a_good_record_is_read_field_by_field(tmp_path: Path) -> None:
    bus = Bus(tmp_path)
    bus.publish(keys.STARLARK_APPS, {"runtime": "x", "updated_at": 1.0, "apps": {
        "clock": {"rendered_at": 10.5, "render_ms": 12, "frames": 3, "delay_ms": 50,
                  "width": 64, "height": 32, "scale": "magnify", "error": None,
                  "errors": 0, "next_render_at": 310.5, "held": True, "backoff_s": 60,
                  "skipped": False}}})
    assert render_records(bus)["clock"] == {
        "rendered_at": 10.5, "render_ms": 12, "next_render_at": 310.5, "backoff_s": 60,
        "frames": 3, "delay_ms": 50, "errors": 0, "width": 64, "height": 32,
        "held": True, "skipped": False, "error": None, "scale": "magnify"}


@pytest.mark.parametrize("record", [
    {"apps": "all"}, {"apps": None}, {}, {"apps": {"clock": "rendered"}},
])
def test_a_record_of_the_wrong_shape_reads_as_nothing_rendered(tmp_path: Path,
                                                               record: dict) -> None:
    bus = Bus(tmp_path)
    bus.publish(keys.STARLARK_APPS, record)
    assert render_records(bus) == {}


def test_fields_of_the_wrong_type_read_as_unknown(tmp_path: Path) -> None:
    bus = Bus(tmp_path)
    bus.publish(keys.STARLARK_APPS, {"apps": {"clock": {
        "rendered_at": "yesterday", "render_ms": -5, "frames": True, "delay_ms": 2**40,
        "error": 42, "errors": "many", "scale": ["x"], "held": "yes", "skipped": 1}}})
    record = render_records(bus)["clock"]
    assert record.pop("held") is False and record.pop("skipped") is False
    assert set(record.values()) == {None}


def test_a_record_file_that_is_not_json_reads_as_nothing(tmp_path: Path) -> None:
    bus = Bus(tmp_path)
    bus.path(keys.STARLARK_APPS).parent.mkdir(parents=True, exist_ok=True)
    bus.path(keys.STARLARK_APPS).write_bytes(b"\x00garbage{")
    assert render_records(bus) == {}


def test_a_preview_is_read_only_when_it_is_a_webp_file(tmp_path: Path) -> None:
    path = preview_path(tmp_path, "clock")
    assert read_preview(tmp_path, "clock") is None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"GIF89a" + bytes(30))
    assert read_preview(tmp_path, "clock") is None
    path.write_bytes(WEBP)
    assert read_preview(tmp_path, "clock") == WEBP
    path.unlink()
    (tmp_path / "elsewhere.webp").write_bytes(WEBP)
    os.symlink(tmp_path / "elsewhere.webp", path)
    assert read_preview(tmp_path, "clock") is None
    path.unlink()
    path.mkdir()
    assert read_preview(tmp_path, "clock") is None
    assert read_preview(tmp_path, "../etc") is None
