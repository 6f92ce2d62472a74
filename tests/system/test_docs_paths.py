"""The map stays true: every source path and module name the docs mention exists.

Paths under ``config/`` and ``plugin-repos/`` are files a running install makes, not
sources, and are not checked; ``EXAMPLES`` are names the docs invent on purpose.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = {"web_service/templates/partials/my_tab.html"}
_PATH = re.compile(r"`((?:shared|display_service|web_service|preview_service|tests|scripts"
                   r"|bench|systemd)/[\w./-]*)`")
_MODULE = re.compile(r"`((?:shared|display_service|web_service|preview_service)(?:\.\w+)+)`")


def _module_exists(name: str) -> bool:
    """``a.b.c`` exists when its longest prefix that is a module or package defines each
    name that follows (a class, function or constant, then a method)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        source = next((path for path in (base.with_suffix(".py"), base / "__init__.py")
                       if path.is_file()), None)
        if source is not None:
            text = source.read_text(encoding="utf-8")
            return all(_defines(text, attribute) for attribute in parts[end:])
    return False


def _defines(text: str, name: str) -> bool:
    pattern = (rf"^\s*(?:async def|def|class) {name}\b|^\s*(?:self\.)?{name}\s*[:=]"
               rf"|^(?:from \S+ )?import .*\b{name}\b")
    return re.search(pattern, text, re.MULTILINE) is not None


def test_every_source_path_in_the_docs_exists() -> None:
    missing = []
    for doc in DOCS:
        for match in _PATH.finditer(doc.read_text(encoding="utf-8")):
            path = match.group(1).rstrip("/")
            if "<" in path or "*" in path or path in EXAMPLES:
                continue
            if not (ROOT / path).exists():
                missing.append(f"{doc.name}: {path}")
    assert missing == []


def test_every_module_name_in_the_docs_exists() -> None:
    missing = [f"{doc.name}: {match.group(1)}"
               for doc in DOCS
               for match in _MODULE.finditer(doc.read_text(encoding="utf-8"))
               if not _module_exists(match.group(1))]
    assert missing == []


def test_a_stale_name_would_be_caught() -> None:
    assert not _module_exists("shared.bus_upkeep")
    assert not _module_exists("shared.bus.core.NoSuchName")
    assert _module_exists("shared.bus.core.Bus")
