"""The of-the-day plugin's categories in its config section, planned for a save.

The community plugin shows a category only when its section names it:
``categories.<name> = {"enabled", "data_file", "display_name"}``, and ``<name>`` in
``category_order`` for the rotation. An upload adds the categories its files bring
that the section lacks (enabled, appended to the order); a category already there is
left as the user set it. A delete removes the file's category and its place in the
order. Both are plans for ``WebServices.save_config``, built on ``plan_main_save``, so
the section is prepared and validated against the plugin's schema and its secrets kept
apart as in every plugin config save. Nothing here writes a file.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

from shared.config.prepare import prepare_plugin_config
from shared.config.save_rules import SchemaFor, changed_sections, plan_main_save
from shared.errors import ValidationError
from shared.plugin_system.of_the_day import DATA_DIR, SUFFIX

JsonObject = dict[str, Any]
Plan = tuple[JsonObject, JsonObject, list[str]]  # (new_main, new_secrets, changed)
MAX_DISPLAY_NAME_CHARS = 100


class Category(NamedTuple):
    """One category a data file brings: its name, file and the name shown for it."""

    name: str
    data_file: str
    display_name: str

    @classmethod
    def for_file(cls, file_name: str, display_name: str | None = None) -> Category:
        """Return the category of the data file ``file_name`` (``<name>.json``)."""
        name = file_name[:-len(SUFFIX)]
        return cls(name, f"{DATA_DIR}/{file_name}", display_name or derived_display_name(name))

    def entry(self) -> JsonObject:
        """Return the section's entry for this category, switched on."""
        return {"enabled": True, "data_file": self.data_file, "display_name": self.display_name}


def derived_display_name(name: str) -> str:
    """Return the name shown for a category named ``name``: ``my_words`` -> ``My Words``."""
    return name.replace("_", " ").title()


def check_display_name(value: object, files: int) -> str | None:
    """Return the ``display_name`` an upload sends (``None``: derive it); else 400.

    It names one category, so it comes with one file only.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise _bad_display_name("display_name must be text")
    if files != 1:
        raise _bad_display_name(f"display_name names one category, but {files} files were "
                                "sent; send them one at a time to name each")
    value = value.strip()
    if len(value) > MAX_DISPLAY_NAME_CHARS or not value.isprintable():
        raise _bad_display_name(f"display_name must be at most {MAX_DISPLAY_NAME_CHARS} "
                                "printable characters")
    return value


def plan_add_categories(main: JsonObject, secrets: JsonObject, plugin_id: str,
                        categories: list[Category], *, schema_for: SchemaFor
                        ) -> tuple[Plan, list[str]]:
    """Return the save plan adding the categories the section lacks, and their names.

    A missing section is created (the schema's defaults applied, as for any save); the
    plan changes nothing when every category is already there.
    """
    section = _prepared(main, plugin_id, schema_for)
    present = _object(section.get("categories"))
    new = {c.name: c for c in categories if c.name not in present}
    if not new:
        return (main, secrets, []), []
    order = _list(section.get("category_order"))
    partial = {"categories": {name: c.entry() for name, c in new.items()},
               "category_order": order + [name for name in new if name not in order]}
    plan = plan_main_save(main, secrets, {plugin_id: partial}, form=False,
                          schema_for=schema_for)
    return plan, list(new)


def plan_remove_category(main: JsonObject, secrets: JsonObject, plugin_id: str, name: str,
                         *, schema_for: SchemaFor) -> tuple[Plan, list[str]]:
    """Return the save plan removing category ``name`` and its place in the order.

    The plan changes nothing (and creates no section) when the section does not name it.
    """
    if not isinstance(main.get(plugin_id), dict):
        return (main, secrets, []), []
    section = _prepared(main, plugin_id, schema_for)
    categories = section.get("categories")
    order = section.get("category_order")
    listed = isinstance(categories, dict) and name in categories
    ordered = isinstance(order, list) and name in order
    if not (listed or ordered):
        return (main, secrets, []), []
    trimmed = copy.deepcopy(section)
    if listed:
        del trimmed["categories"][name]
    if ordered:
        trimmed["category_order"] = [n for n in _list(order) if n != name]
    # A partial save merges onto the stored section and cannot drop a key, so the
    # stored section is trimmed first and saved as is: prepared and validated again.
    new_main, new_secrets, _ = plan_main_save({**main, plugin_id: trimmed}, secrets,
                                              {plugin_id: {}}, form=False,
                                              schema_for=schema_for)
    changed = changed_sections(main, new_main, secrets, new_secrets)
    return (new_main, new_secrets, changed), [name]


def _prepared(main: JsonObject, plugin_id: str, schema_for: SchemaFor) -> JsonObject:
    """Return the stored section as the plugin reads it (the schema's defaults applied)."""
    return prepare_plugin_config(_object(main.get(plugin_id)), schema_for(plugin_id))


def _bad_display_name(message: str) -> ValidationError:
    return ValidationError(message, error_code="INVALID_FIELD",
                           details={"field": "display_name"})


def _object(value: Any) -> JsonObject:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []
