"""docs/PLUGINS.md "From a new plugin to the store": the steps run as written."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from PIL import Image

from shared.paths import ROOT
from web_service.store.registry.parse import parse_registry

GUIDE = (ROOT / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
SECTION = GUIDE.split("## From a new plugin to the store", 1)[1].split("\n## ", 1)[0]
LEDPANEL = Path(sys.executable).with_name("ledpanel")


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", SECTION, re.S)


def test_the_guides_plugin_steps_run_as_written(tmp_path: Path) -> None:
    commands = [line.split("#", 1)[0].strip() for line in _blocks("sh")[0].splitlines()]
    steps = [shlex.split(c) for c in commands if c.startswith("ledpanel plugin")]
    assert [s[2] for s in steps] == ["new", "check", "render", "test"]
    for step in steps:
        done = subprocess.run([str(LEDPANEL), *step[1:]], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, (step, done.stdout[-2000:], done.stderr[-2000:])
    with Image.open(tmp_path / "my-clock.png") as frame:
        assert frame.size == (96, 48)
        assert frame.convert("RGB").getbbox() is not None  # something was drawn
    assert any(c.startswith("ledpanel-preview --plugins-dir") for c in commands)


def test_the_guides_registry_entry_is_one_the_store_reads() -> None:
    body = _blocks("json")[0].encode()
    entries, warnings = parse_registry(body, "https://example.org/plugins.json")
    assert warnings == []
    assert [e["id"] for e in entries] == ["my-clock"]
    assert entries[0]["repo"] == json.loads(body)["plugins"][0]["repo"]
