"""Shared by the of-the-day route tests: the plugin's data folder, uploads, and a
folder outside every plugin that nothing may touch."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.web_service.conftest import write_plugin

UPLOAD = "/api/v3/of-the-day/json/upload"
DELETE = "/api/v3/of-the-day/json/delete"
SECRET = "TOP-SECRET-OUTSIDE"
WORDS = {"1": {"word": "Ephemeral", "definition": "Lasting a very short time"},
         "2": {"word": "Serendipity", "type": "noun"},
         "366": {"title": "Leap", "subtitle": "a day more"}}
KEPT = {"7": {"title": "kept"}}
CONFIG = "/api/v3/plugins/config"
# The shape of the community plugin's categories.
OTD_SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "display_duration": {"type": "number", "default": 40},
        "category_order": {"type": "array", "items": {"type": "string"},
                           "default": ["word_of_the_day"]},
        "categories": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"enabled": {"type": "boolean", "default": True},
                               "data_file": {"type": "string"},
                               "display_name": {"type": "string"}},
                "required": ["enabled", "data_file", "display_name"]}},
    },
}
# The same, with category names limited as the plugin's file manager limits them, so a
# save can be refused.
STRICT_SCHEMA = json.loads(json.dumps(OTD_SCHEMA))
STRICT_SCHEMA["properties"]["categories"]["propertyNames"] = {"pattern": "^[a-z0-9_]+$"}


def upload(client, files: list[tuple[str, bytes]], plugin_id: str | None = None,
           field: str = "file", **kwargs):
    data: dict = {field: [(io.BytesIO(content), name) for name, content in files]}
    if plugin_id is not None:
        data["plugin_id"] = plugin_id
    return client.post(UPLOAD, data=data, content_type="multipart/form-data", **kwargs)


def as_bytes(value: object) -> bytes:
    return json.dumps(value).encode()


def make_data_dir(web, schema: dict) -> Path:
    directory = write_plugin(web.paths.plugins_dir(), "of-the-day",
                             schema=schema) / "of_the_day"
    directory.mkdir()
    (directory / "kept.json").write_text(json.dumps(KEPT))
    return directory


def make_outside(tmp_path: Path) -> Path:
    """A directory outside every plugin folder, holding a secret and a victim data file."""
    directory = tmp_path / "outside"
    directory.mkdir()
    (directory / "secret.txt").write_text(SECRET)
    (directory / "victim.json").write_text(json.dumps({"1": {"word": SECRET}}))
    return directory


def untouched(directory: Path) -> None:
    assert sorted(p.name for p in directory.iterdir()) == ["secret.txt", "victim.json"]
    assert (directory / "secret.txt").read_text() == SECRET
    assert json.loads((directory / "victim.json").read_text()) == {"1": {"word": SECRET}}


def stored(data_dir: Path) -> dict[str, object]:
    return {p.name: json.loads(p.read_text()) for p in sorted(data_dir.iterdir())}


def refused(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, (answer.status_code, answer.get_json())
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == code, body
    assert SECRET not in answer.get_data(as_text=True)
    return body


def plugin_config(web) -> dict:
    """The of-the-day section as GET /plugins/config answers it."""
    answer = web.client.get(CONFIG, query_string={"plugin_id": "of-the-day"})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def save_categories(web, categories: dict, order: list[str]) -> None:
    answer = web.client.post(CONFIG, json={"plugin_id": "of-the-day", "config": {
        "categories": categories, "category_order": order}})
    assert answer.status_code == 200, answer.get_json()


def category(name: str, display_name: str, enabled: bool = True) -> dict:
    return {"enabled": enabled, "data_file": f"of_the_day/{name}.json",
            "display_name": display_name}
