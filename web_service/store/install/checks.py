"""Check a downloaded plugin folder before it may replace anything.

``check_plugin`` refuses (``StoreError``) a folder whose manifest.json is missing, too
large or not JSON, lacks what the store requires (id, name, class_name, display_modes;
``version`` is not required), names another id than expected, whose entry point is
missing or does not define the class (read with ``ast``: plugin code is never imported
in the web process), that holds a symlink or non-regular file anywhere, more files or
bytes than the store's limits, or that declares a core version range excluding ours.

Core version rule: the manifest's declared minimums (``core_version.declared_minimums``:
``min_core_version``, ``requires.*``, the current ``versions[]`` entry's
``ledmatrix_min`` ...) must not exceed the running core; ``max_core_version`` must not
be below it; ``compatible_versions`` (a list of ranges such as ``">=2.0.0 <4"``,
``"^3.1"``) must match when any of its items can be read. The check is skipped when
the running core's version is stale (``core_version.core_is_stale``).
"""

from __future__ import annotations

import ast
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from shared.ids import is_plain_segment
from shared.plugin_system.core_version import (
    core_is_stale,
    declared_minimums,
    minimum_of,
    parse_version,
)
from shared.plugin_system.manifest import (
    MANIFEST_FILE,
    entry_point_problem,
    store_errors,
    with_defaults,
)
from shared.version import CORE_VERSION
from web_service.store.errors import StoreError
from web_service.store.install.archive import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES

MAX_MANIFEST_BYTES = 1024 * 1024
MAX_SOURCE_BYTES = 5 * 1024 * 1024
_CLAUSE = re.compile(r"(>=|<=|>|<|==|=|\^|~=|~)?\s*(v?\d+(?:\.\d+){0,2}[^\s,]*)")
Version = tuple[int, int, int]


def check_plugin(folder: Path, expected_id: str | None = None, *,
                 core_version: str = CORE_VERSION,
                 env: dict[str, str] | None = None) -> dict[str, Any]:
    """Return the manifest of a plugin folder the store accepts; raise StoreError otherwise."""
    folder = Path(folder)
    check_tree(folder)
    manifest = read_manifest(folder)
    problems = store_errors(manifest)
    if problems:
        raise StoreError(f"{MANIFEST_FILE}: {'; '.join(problems)}", "BAD_PLUGIN",
                         details={"errors": problems})
    plugin_id = manifest["id"]
    if not is_plain_segment(plugin_id):
        raise StoreError(f"{MANIFEST_FILE}: id {plugin_id!r} is not a plain name", "BAD_PLUGIN")
    if expected_id is not None and plugin_id != expected_id:
        raise StoreError(f"{MANIFEST_FILE}: id is {plugin_id!r}, expected {expected_id!r}",
                         "BAD_PLUGIN")
    check_entry_point(folder, with_defaults(manifest))
    check_core(manifest, core_version, os.environ if env is None else env)
    return manifest


def check_tree(folder: Path) -> None:
    """Refuse symlinks, non-regular files and sizes beyond the limits anywhere in ``folder``."""
    count = total = 0
    for current, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = Path(current) / name
            relative = path.relative_to(folder)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                raise StoreError(f"{relative}: symbolic links are not accepted",
                                 "UNSAFE_ARCHIVE")
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise StoreError(f"{relative}: only regular files are accepted",
                                 "UNSAFE_ARCHIVE")
            size = os.lstat(path).st_size
            count += 1
            total += size
            if size > MAX_FILE_BYTES or count > MAX_FILES or total > MAX_TOTAL_BYTES:
                raise StoreError(f"the plugin is larger than the store's limits ({MAX_FILES} "
                                 f"files, {MAX_TOTAL_BYTES} bytes)", "TOO_LARGE")


def read_manifest(folder: Path) -> dict[str, Any]:
    """Return the parsed manifest.json of ``folder`` (size-capped); raise BAD_PLUGIN."""
    data = _read_limited(folder / MANIFEST_FILE, MAX_MANIFEST_BYTES, MANIFEST_FILE)
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise StoreError(f"{MANIFEST_FILE} is not valid JSON: {err}", "BAD_PLUGIN") from err
    if not isinstance(manifest, dict):
        raise StoreError(f"{MANIFEST_FILE} must hold a JSON object", "BAD_PLUGIN")
    return manifest


def check_entry_point(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse a missing entry point or one that does not define ``class_name``."""
    entry_point, class_name = manifest["entry_point"], manifest["class_name"]
    problem = entry_point_problem(entry_point) if isinstance(entry_point, str) else \
        "entry_point: must be a string"
    if problem:
        raise StoreError(f"{MANIFEST_FILE}: {problem}", "BAD_PLUGIN")
    source = _read_limited(folder / entry_point, MAX_SOURCE_BYTES, entry_point)
    try:
        tree = ast.parse(source, filename=entry_point)
    except (SyntaxError, ValueError) as err:
        raise StoreError(f"{entry_point} does not parse: {err}", "BAD_PLUGIN") from err
    if not any(isinstance(node, ast.ClassDef) and node.name == class_name
               for node in tree.body):
        raise StoreError(f"{entry_point} does not define class {class_name}", "BAD_PLUGIN")


def check_core(manifest: dict[str, Any], core_version: str, env: Any) -> None:
    """Refuse a plugin whose declared core version range excludes the running core."""
    if core_is_stale(core_version, env):
        return
    running = parse_version(core_version)
    assert running is not None
    for where, value in declared_minimums(manifest):
        wanted = minimum_of(value)
        if wanted is not None and wanted > running:
            raise StoreError(f"needs core {value} ({where}); this core is {core_version}",
                             "INCOMPATIBLE")
    highest = parse_version(manifest.get("max_core_version"))
    if highest is not None and highest < running:
        raise StoreError(f"supports core up to {manifest['max_core_version']} "
                         f"(max_core_version); this core is {core_version}", "INCOMPATIBLE")
    ranges = manifest.get("compatible_versions")
    if isinstance(ranges, list):
        verdicts = [v for v in (range_matches(r, running) for r in ranges) if v is not None]
        if verdicts and not any(verdicts):
            raise StoreError(f"compatible_versions {ranges!r} excludes this core "
                             f"{core_version}", "INCOMPATIBLE")


def range_matches(text: Any, running: Version) -> bool | None:
    """Return whether a range string admits ``running``; None when it cannot be read."""
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        return None
    clauses = _CLAUSE.findall(text.replace(",", " "))
    if not clauses:
        return None
    for op, version in clauses:
        bound = parse_version(version)
        if bound is None:
            return None
        if not _clause_ok(op, bound, running, version):
            return False
    return True


def _clause_ok(op: str, bound: Version, running: Version, text: str) -> bool:
    depth = text.lstrip("v").count(".") + 1
    if op == ">=":
        return running >= bound
    if op == ">":
        return running > bound
    if op == "<=":
        return running <= bound
    if op == "<":
        return running < bound
    if op == "^":
        return running >= bound and running[0] == bound[0]
    if op in ("~", "~="):
        return running >= bound and running[:max(depth - 1, 1)] == bound[:max(depth - 1, 1)]
    return running[:depth] == bound[:depth]  # "==", "=" or a bare version


def _read_limited(path: Path, limit: int, what: str) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except FileNotFoundError as err:
        raise StoreError(f"{what} not found in the plugin", "BAD_PLUGIN") from err
    except OSError as err:
        raise StoreError(f"{what} cannot be read: {err.strerror}", "BAD_PLUGIN") from err
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise StoreError(f"{what} is not a regular file", "BAD_PLUGIN")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise StoreError(f"{what} is larger than {limit} bytes", "TOO_LARGE")
    return data
