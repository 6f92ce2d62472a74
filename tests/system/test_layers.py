"""The layers hold: import-linter's contracts (``[tool.importlinter]`` in pyproject.toml),
no import cycle between modules or between the sub-packages of one package, and
``shared`` imports with the web server and the matrix binding out of reach.

Each contract is also shown to bite: a copy of the packages with one forbidden import
planted in it breaks exactly that contract.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "display_service", "web_service", "preview_service", "mqtt_service")
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())", "--no-cache"]


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(LINT, cwd=cwd, capture_output=True, text=True, timeout=120,
                          check=False, env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"})


def test_the_import_contracts_are_kept() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 kept, 0 broken" in done.stdout


PLANTED = [
    ("shared/errors.py", "import flask", "shared imports neither daemon"),
    ("shared/paths.py", "import rgbmatrix", "shared imports neither daemon"),
    ("display_service/daemon.py", "import web_service.services", "never import each other"),
    ("web_service/app.py", "from shared.plugin_system import loader",
     "The web never imports plugin code"),
    ("preview_service/app.py", "import display_service.daemon", "The preview server imports"),
    ("preview_service/routes.py", "import web_service.app", "The preview server imports"),
    ("mqtt_service/bridge.py", "import web_service.app", "The MQTT bridge imports"),
    ("mqtt_service/actions.py", "import display_service.daemon", "The MQTT bridge imports"),
    ("shared/paths.py", "import paho.mqtt.client", "Only shared.mqtt imports paho"),
]


@pytest.mark.parametrize(("path", "line", "contract"), PLANTED,
                         ids=[p[0] + ": " + p[1] for p in PLANTED])
def test_a_planted_forbidden_import_breaks_its_contract(tmp_path: Path, path: str, line: str,
                                                        contract: str) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / path
    target.write_text(target.read_text() + f"\n{line}  # planted by the test\n")
    done = _lint(tmp_path)
    assert done.returncode != 0, done.stdout
    assert "1 broken" in done.stdout, done.stdout
    # A contract with ignored imports says so after its verdict.
    broken = [row for row in done.stdout.splitlines()
              if row.endswith("BROKEN") or "BROKEN (" in row]
    assert len(broken) == 1 and contract in broken[0], done.stdout


def _cycles(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_module_imports_itself_through_others(graph: grimp.ImportGraph) -> None:
    """Function-level and type-only imports count too: a cycle hidden in a function is
    still a cycle."""
    modules = graph.modules
    edges = {m: set(graph.find_modules_directly_imported_by(m)) & modules for m in modules}
    assert _cycles(sorted(modules), edges) == []


def test_no_two_sub_packages_of_one_package_import_each_other(graph: grimp.ImportGraph) -> None:
    """``shared.config`` and ``shared.plugin_system`` (say) form no loop, even through
    different modules of each."""
    problems = {}
    for parent in sorted(m for m in graph.modules if graph.find_children(m)):
        def child(module: str, parent: str = parent) -> str | None:
            if not module.startswith(parent + "."):
                return None
            return parent + "." + module[len(parent) + 1:].split(".")[0]

        edges: dict[str, set[str]] = defaultdict(set)
        for module in graph.modules:
            source = child(module)
            for imported in graph.find_modules_directly_imported_by(module):
                target = child(imported)
                if source and target and target != source:
                    edges[source].add(target)
        cycles = _cycles(sorted(graph.find_children(parent)), edges)
        if cycles:
            problems[parent] = cycles
    assert problems == {}


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(["a", "b", "c", "d"], edges) == [["a", "b", "c"]]


BLOCKED = ("flask", "werkzeug", "waitress", "rgbmatrix", "RGBMatrixEmulator")

IMPORT_ALL_BLOCKED = f"""
import importlib, importlib.abc, pkgutil, sys

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ImportError("blocked by the test: " + name)
        return None

sys.meta_path.insert(0, Blocked())
import shared
names = [m.name for m in pkgutil.walk_packages(shared.__path__, "shared.")
         if not m.name.endswith("__main__")]
for name in names:
    importlib.import_module(name)
print(len(names), "modules")
"""


def test_shared_imports_with_the_web_server_and_matrix_binding_blocked() -> None:
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL_BLOCKED], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[0]) > 100
