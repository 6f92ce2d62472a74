"""Community-style plugins and registries built for store tests."""

from __future__ import annotations

import json
from typing import Any

from tests.web_service.store.repo_host import Files


def plugin_files(plugin_id: str, *, version: str = "1.0.0", colour: tuple[int, int, int] =
                 (255, 0, 0), class_name: str = "SampleStorePlugin",
                 requirements: str | None = None, extra: Files | None = None) -> Files:
    """A plugin in the community style that fills the panel with ``colour``."""
    manifest = {
        "id": plugin_id, "name": plugin_id.replace("-", " ").title(), "version": version,
        "author": "community", "description": f"{plugin_id} for store tests",
        "entry_point": "manager.py", "class_name": class_name, "category": "test",
        "tags": ["test"], "display_modes": [plugin_id.replace("-", "_")],
        "versions": [{"version": version, "ledmatrix_min": "2.0.0"}],
    }
    manager = f'''"""A store test plugin: fills the panel with one colour."""
from src.plugin_system.base_plugin import BasePlugin


class {class_name}(BasePlugin):
    COLOUR = {tuple(colour)!r}

    def update(self):
        pass

    def display(self, force_clear=False):
        width = self.display_manager.matrix.width
        height = self.display_manager.matrix.height
        self.display_manager.draw.rectangle([0, 0, width - 1, height - 1], fill=self.COLOUR)
        self.display_manager.update_display()
'''
    schema = {"type": "object", "properties": {
        "enabled": {"type": "boolean", "default": True},
        "display_duration": {"type": "number", "default": 15, "minimum": 1}}}
    files: Files = {"manifest.json": json.dumps(manifest, indent=2).encode(),
                    "manager.py": manager.encode(),
                    "config_schema.json": json.dumps(schema).encode()}
    if requirements is not None:
        files["requirements.txt"] = requirements.encode()
    files.update(extra or {})
    return files


def registry_entry(plugin_id: str, repo: str, *, plugin_path: str = "",
                   version: str = "1.0.0", **more: Any) -> dict[str, Any]:
    """One registry entry as the community index writes it."""
    entry = {"id": plugin_id, "name": plugin_id.replace("-", " ").title(),
             "description": f"{plugin_id} for store tests", "author": "community",
             "category": "test", "tags": ["test"], "repo": repo, "branch": "main",
             "plugin_path": plugin_path, "latest_version": version,
             "versions": [{"version": version, "ledmatrix_min": "2.0.0"}],
             "stars": 0, "downloads": 0, "last_updated": "2026-01-01", "verified": True}
    entry.update(more)
    return entry


def registry(*entries: dict[str, Any]) -> dict[str, Any]:
    """A registry index: ``{"version", "last_updated", "plugins"}``."""
    return {"version": "1.0.0", "last_updated": "2026-01-01", "plugins": list(entries)}
