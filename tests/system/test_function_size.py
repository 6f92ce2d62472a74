"""Every function in the three packages fits on one screen: at most 60 lines.

A function is counted from its ``def`` line to its last line (decorators excluded); a
nested function counts inside its parent and on its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "display_service", "web_service", "preview_service")
MAX_LINES = 60
Function = ast.FunctionDef | ast.AsyncFunctionDef

def long_functions() -> dict[tuple[str, str], int]:
    """Return ``{(path, qualified name): lines}`` of every function over the limit."""
    found: dict[tuple[str, str], int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            relative = path.relative_to(ROOT).as_posix()
            for name, node in _functions(tree, ""):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    found[(relative, name)] = lines
    return found


def _functions(node: ast.AST, prefix: str) -> list[tuple[str, Function]]:
    """Return every function under ``node`` with its dotted name (``Class.method``)."""
    found: list[tuple[str, Function]] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                found.append((name, child))
            found += _functions(child, f"{name}.")
        else:
            found += _functions(child, prefix)
    return found


def test_no_function_is_longer_than_sixty_lines() -> None:
    over = long_functions()
    listed = "\n".join(f"  {path}:{name}: {lines} lines"
                       for (path, name), lines in sorted(over.items()))
    assert not over, f"split these functions (at most {MAX_LINES} lines each):\n{listed}"
