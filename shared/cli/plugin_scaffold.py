"""``ledpanel plugin new NAME``: the files of a new plugin that passes ``check`` as made.

The plugin draws a border round the whole panel and a configurable message in the
middle, in the largest font that fits (the layout API's ``draw_fit``), so it fills
every panel size; its test renders it at every default size with
the harness.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from shared.version import CORE_VERSION

PLUGIN_NAME = re.compile(r"^[a-z][a-z0-9-]{0,62}[a-z0-9]$")

MANAGER = '''"""{title}: a border round the panel and a message in the middle."""

from shared.plugin_api.base_plugin import BasePlugin


class {class_name}(BasePlugin):
    def update(self):
        pass  # fetch data here; display() only draws

    def display(self, force_clear=False):
        dm = self.display_manager
        width, height = dm.width, dm.height
        color = tuple(self.config.get("color", [0, 160, 255]))
        dm.clear()
        dm.draw.rectangle((0, 0, width - 1, height - 1), outline=color)
        message = self.config.get("message", "Hello")
        # The layout API: the largest font of the ladder that fits inside the border,
        # so the message grows with the panel.
        self.draw_fit(message, self.layout.bounds.inset(2), color=color)
        dm.update_display()
        return True
'''

TEST = '''"""Renders the plugin at every default size with the safety harness."""

from pathlib import Path

from shared.plugin_system.testing import DEFAULT_TEST_SIZES, render_plugin

PLUGIN_DIR = Path(__file__).resolve().parent.parent


def test_it_draws_inside_every_default_size():
    for size in DEFAULT_TEST_SIZES:
        result = render_plugin(PLUGIN_DIR, size)
        assert result.error_class is None, result.error
        assert [p.message for p in result.problems] == []
        assert result.images[0].getbbox() is not None
'''

README = '''# {title}

A ledpanel plugin. Made with `ledpanel plugin new {name}`.

- `ledpanel plugin check .`: lint the manifest and schema, render every default size.
- `ledpanel plugin render . --size 64x32 --out frame.png`: one frame as a PNG.
- `ledpanel plugin test .`: run `tests/` with the harness importable.

Settings: `message` (the text shown) and `color` (RGB).
'''


def class_name_for(name: str) -> str:
    """Return the plugin class name for a plugin name: ``my-clock`` -> ``MyClockPlugin``."""
    return "".join(part.capitalize() for part in name.split("-") if part) + "Plugin"


def scaffold_files(name: str) -> dict[str, str]:
    """Return the new plugin's files: relative path -> text."""
    title = " ".join(part.capitalize() for part in name.split("-") if part)
    class_name = class_name_for(name)
    manifest = {
        "id": name, "name": title, "version": "0.1.0", "author": "you",
        "description": f"{title}: a message framed on the panel.",
        "entry_point": "manager.py", "class_name": class_name, "category": "custom",
        "compatible_versions": [f">={CORE_VERSION}"], "display_modes": [name],
        "default_duration": 15, "display": {"design_size": {"width": 64, "height": 32}},
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
        "type": "object",
        "properties": {
            "enabled": {"type": "boolean", "default": False},
            "message": {"type": "string", "title": "Message", "maxLength": 64,
                        "default": "Hello"},
            "color": {"type": "array", "title": "Colour", "x-widget": "color-picker",
                      "items": {"type": "integer", "minimum": 0, "maximum": 255},
                      "minItems": 3, "maxItems": 3, "default": [0, 160, 255]},
        },
    }
    return {
        "manifest.json": json.dumps(manifest, indent=2) + "\n",
        "config_schema.json": json.dumps(schema, indent=2) + "\n",
        "manager.py": MANAGER.format(title=title, class_name=class_name),
        f"tests/test_{name.replace('-', '_')}.py": TEST,
        "README.md": README.format(title=title, name=name),
    }


def write_scaffold(parent: Path, name: str) -> Path:
    """Create ``parent/name`` with the scaffold; raise ValueError when it cannot."""
    if not PLUGIN_NAME.match(name):
        raise ValueError(f"{name!r} is not a plugin name: 2-64 lowercase letters, digits "
                         f"and hyphens, starting with a letter")
    target = Path(parent) / name
    if target.exists():
        raise ValueError(f"{target} already exists")
    for relative, text in scaffold_files(name).items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target
