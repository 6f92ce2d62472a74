"""manifest.yaml as the apps repository writes it, and garbage that must not be guessed at."""

from __future__ import annotations

from pathlib import Path

from shared.starlark.installed.manifest_yaml import MAX_ITEMS, MAX_TEXT, parse_manifest

APPS = Path(__file__).resolve().parent.parent / "apps"


def test_a_repository_manifest_reads_as_its_keys() -> None:
    found = parse_manifest((APPS / "amazing" / "manifest.yaml").read_bytes())
    assert found["id"] == "amazing"
    assert found["fileName"] == "amazing.star"
    assert found["recommendedInterval"] == 5
    assert found["tags"] == ["gaming", "art", "retro"]
    assert found["published"] == "2022-09-22T16:34:31Z"


def test_every_sample_manifest_reads_with_its_id() -> None:
    for manifest in sorted(APPS.glob("*/manifest.yaml")):
        found = parse_manifest(manifest.read_bytes())
        assert isinstance(found["id"], str) and found["id"], manifest
        assert found["name"] and isinstance(found.get("tags", []), list)


def test_quotes_comments_booleans_and_what_is_skipped() -> None:
    text = """---
# a comment
name: 'It''s a "clock"'
summary: "say \\"hi\\""
desc: plain text # trailing comment
supports2x: true
nested:
  key: value
flow: [a, 'b c']
empty: []
nested_flow: [a, [b]]
  indented: skipped
"""
    found = parse_manifest(text)
    assert found["name"] == 'It\'s a "clock"'
    assert found["summary"] == 'say "hi"'
    assert found["desc"] == "plain text"
    assert found["supports2x"] is True
    assert found["nested"] == []  # a nested map is not read as anything
    assert found["flow"] == ["a", "b c"]
    assert found["empty"] == []
    assert found["nested_flow"] == "[a, [b]]"
    assert "indented" not in found and "key" not in found


def test_an_untrusted_manifest_is_bounded() -> None:
    long = "x" * (MAX_TEXT + 50)
    items = "\n".join(f"  - t{i}" for i in range(MAX_ITEMS + 20))
    found = parse_manifest(f"name: {long}\ntags:\n{items}\n".encode() + b"\xff\xfe")
    assert len(found["name"]) == MAX_TEXT
    assert len(found["tags"]) == MAX_ITEMS
    assert parse_manifest(b"\x00\x01 not yaml at all") == {}
