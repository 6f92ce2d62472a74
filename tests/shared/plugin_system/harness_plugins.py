"""Real plugin folders for the harness tests: a manifest, a schema and a manager.py."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

FRAMED = """
from src.plugin_system.base_plugin import BasePlugin


class Framed(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        dm = self.display_manager
        dm.clear()
        color = tuple(self.config.get("color", [0, 200, 0]))
        dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), outline=color)
        dm.update_display()
        return True
"""


def make_plugin(parent: Path, plugin_id: str, source: str, *,
                schema: dict[str, Any] | None = None, **manifest: Any) -> Path:
    """Write a plugin folder ``parent/plugin_id`` and return it."""
    directory = parent / plugin_id
    directory.mkdir(parents=True)
    data = {"id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "t",
            "entry_point": "manager.py", "class_name": manifest.pop("class_name", "Framed"),
            "compatible_versions": [">=3.0.0"], **manifest}
    (directory / "manifest.json").write_text(json.dumps(data))
    (directory / "manager.py").write_text(textwrap.dedent(source))
    if schema is not None:
        (directory / "config_schema.json").write_text(json.dumps(schema))
    return directory


def drawing(body: str, class_name: str = "Framed", returns: str = "True") -> str:
    """Return a plugin source whose display() runs ``body`` (dm is the display manager)."""
    lines = textwrap.indent(textwrap.dedent(body).strip(), " " * 8)
    return (
        "from src.plugin_system.base_plugin import BasePlugin\n\n\n"
        f"class {class_name}(BasePlugin):\n"
        "    def update(self):\n"
        "        pass\n\n"
        "    def display(self, force_clear=False):\n"
        "        dm = self.display_manager\n"
        "        dm.clear()\n"
        f"{lines}\n"
        "        dm.update_display()\n"
        f"        return {returns}\n"
    )


def write_spec(directory: Path, spec: dict[str, Any]) -> None:
    """Write ``test/harness.json``."""
    (directory / "test").mkdir(exist_ok=True)
    (directory / "test" / "harness.json").write_text(json.dumps(spec))
