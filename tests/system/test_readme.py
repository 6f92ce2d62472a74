"""The README's examples work on a fresh checkout as written."""

from __future__ import annotations

import re
from pathlib import Path

from shared.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands(prefix: str) -> list[str]:
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.DOTALL):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command.removeprefix(".venv/bin/").startswith(prefix):
                found.append(command.removeprefix(".venv/bin/"))
    return found


def test_on_demand_examples_name_a_plugin_that_ships() -> None:
    examples = commands("ledpanel on-demand start")
    assert examples
    for example in examples:
        plugin_id = example.split()[3]
        assert (ROOT / "plugin-repos" / plugin_id / "manifest.json").is_file(), example


def test_every_ledpanel_example_parses() -> None:
    examples = commands("ledpanel ")
    assert len(examples) >= 5
    for example in examples:
        build_parser().parse_args(example.split()[1:])  # exits 2 on a bad example


def test_the_curl_examples_use_routes_that_exist() -> None:
    from web_service.app import create_app

    rules = {rule.rule for rule in create_app().url_map.iter_rules()}
    paths = re.findall(r"curl[^\n]*?http://localhost:5000(/[\w/.-]+)", README)
    assert paths and all(path in rules for path in paths), paths
