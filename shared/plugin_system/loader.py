"""Import a plugin's entry point and find its class, keeping plugins apart.

Each plugin is imported as its own package, ``ledpanel_plugins.<name>`` with the
plugin directory as its ``__path__`` (``<name>`` is the id made into an identifier).
So a relative ``from .helpers import x`` in plugin A and in plugin B resolve to two
different modules, ``ledpanel_plugins.a.helpers`` and ``ledpanel_plugins.b.helpers``.
A plugin directory's ``__init__.py``, when present, runs as that package.

Absolute imports of a plugin's own modules (``import helpers``,
``from helpers import x``), common in community plugins, are served while the plugin
is being imported by a finder placed first on ``sys.meta_path``: a top-level name
that is a module or package in the plugin directory resolves to the same module
object as the relative import (``ledpanel_plugins.<name>.helpers``). Before the
import, other modules cached under those top-level names are set aside; after it,
the plugin's aliases are dropped and the set-aside modules are put back, so plugin
B never receives plugin A's ``helpers``. No ``sys.path`` entry is added.

Limits of that rule, on purpose:
- Standard-library names and the core's own packages (``shared``, ``src``, ...) are
  never shadowed, even if a plugin has a file of that name.
- It applies during the plugin's import only: an absolute import of a local module
  run later (inside a function) is not served; such imports should be relative.

Loading rules kept here (see the spec's manifest loading rules): a class_name that
is missing or differs in case raises PluginError naming the classes the entry point
does define (rule 1); a declared minimum core version newer than the running core
logs one advisory warning (rule 4, ``core_version``); a ``fonts`` block is never
read (rule 5); ``effective_modes`` gives an instance's own ``modes`` precedence over
the manifest's ``display_modes`` (rule 3).

The ``src.*`` names of the existing plugin API resolve to our modules through the
finder in ``compat`` (installed on the first import of a plugin); a name we do not
provide fails naming the module and the plugin.

An import failure raises PluginError carrying the exception type and message; the
original exception is chained (``__cause__``) so the caller can log the traceback.
A third-party package the plugin lacks (ModuleNotFoundError for a name that is
neither ours nor the plugin's own) is named with the command that would install it into
the plugin's own dependency folder (never the environment the daemons share);
requirements are never installed at load (that is the store's job). What the store
installed for the plugin (``dependencies``: ``<plugin>/.ledpanel-deps``) is appended to
``sys.path`` right before its import, after the core's site-packages.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import itertools
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

from shared.errors import PluginError
from shared.plugin_api import compat
from shared.plugin_system import dependencies
from shared.plugin_system.core_version import check_core_version
from shared.plugin_system.discovery import PluginInfo

ROOT_PACKAGE = "ledpanel_plugins"
PROTECTED_NAMES = frozenset({"shared", "display_service", "web_service", "src", ROOT_PACKAGE})
_LOCK = threading.RLock()


def package_name(plugin_id: str) -> str:
    """Return the unique package name a plugin's modules are imported under."""
    name = re.sub(r"\W", "_", plugin_id, flags=re.ASCII) or "_"
    if name[0].isdigit():
        name = f"_{name}"
    if name != plugin_id:
        name += "_" + hashlib.sha1(plugin_id.encode("utf-8")).hexdigest()[:8]
    return f"{ROOT_PACKAGE}.{name}"


def load_plugin_class(info: PluginInfo) -> type:
    """Import a discovered plugin's entry point and return its plugin class."""
    if not info.ok:
        raise PluginError(f"{info.id}: {'; '.join(info.errors)}")
    class_name = info.class_name
    if not class_name:
        raise PluginError(f"{info.id}: manifest has no class_name")
    if not (info.directory / info.entry_point).is_file():
        raise PluginError(f"{info.id}: entry point {info.entry_point} not found")
    check_core_version(info.manifest, info.id)
    module = import_entry_point(info)
    return find_class(module, class_name, info)


def import_entry_point(info: PluginInfo) -> ModuleType:
    """Import the plugin's entry module afresh under its own package; raise PluginError."""
    package = package_name(info.id)
    entry = PurePosixPath(info.entry_point).with_suffix("")
    module_name = ".".join((package, *entry.parts))
    directory = info.directory.resolve()
    compat.install()
    with _LOCK:
        dependencies.add_to_path(directory)
        unload_package(package)
        local = local_module_names(directory)
        try:
            with _local_imports(package, local), compat.importing(info.id):
                _create_package(package, directory)
                return importlib.import_module(module_name)
        except (Exception, SystemExit) as err:
            unload_package(package)
            message = f"{info.id}: importing {info.entry_point} failed: {type(err).__name__}: {err}"
            hint = missing_package_hint(err, info, local)
            raise PluginError(f"{message}; {hint}" if hint else message) from err


def missing_package_hint(err: BaseException, info: PluginInfo, local: set[str]) -> str | None:
    """Return "missing package X: install with ..." when ``err`` is a third-party import."""
    name = getattr(err, "name", None) if isinstance(err, ModuleNotFoundError) else None
    if not isinstance(name, str) or not name:
        return None
    top = name.partition(".")[0]
    if top in PROTECTED_NAMES or top in local or top in sys.stdlib_module_names:
        return None
    declared = info.manifest.get("requirements_file")
    candidates = [declared] if isinstance(declared, str) and _inside(declared) else []
    candidates.append("requirements.txt")
    requirements = next(
        (info.directory / c for c in candidates if (info.directory / c).is_file()), None
    )
    target = dependencies.deps_dir(info.directory)
    wanted = f"-r {requirements}" if requirements else top
    return (f"missing package {top!r} (not installed at load): install it with: "
            f"pip install --target {target} {wanted}")


def _inside(relative: str) -> bool:
    path = PurePosixPath(relative)
    return bool(relative) and not path.is_absolute() and ".." not in path.parts


def find_class(module: ModuleType, class_name: str, info: PluginInfo) -> type:
    """Return the class named ``class_name`` in ``module``; raise PluginError naming others."""
    candidate = getattr(module, class_name, None)
    if isinstance(candidate, type):
        return candidate
    package = package_name(info.id)
    defined = sorted(
        name
        for name, value in vars(module).items()
        if isinstance(value, type) and str(value.__module__).startswith(package)
    )
    if candidate is not None:
        problem = f"{class_name!r} in {info.entry_point} is not a class"
    else:
        problem = f"class {class_name!r} not found in {info.entry_point}"
        if any(name.lower() == class_name.lower() for name in defined):
            problem += " (class names are case-sensitive)"
    raise PluginError(f"{info.id}: {problem}; it defines: {', '.join(defined) or 'no classes'}")


def effective_modes(instance: Any, manifest: dict[str, Any]) -> list[str]:
    """Return the plugin's display modes: its ``modes`` attribute, else the manifest's."""
    modes = getattr(instance, "modes", None)
    if isinstance(modes, list | tuple) and all(isinstance(m, str) for m in modes):
        return list(modes)
    declared = manifest.get("display_modes")
    if isinstance(declared, list) and declared and all(isinstance(m, str) for m in declared):
        return list(declared)
    plugin_id = getattr(instance, "plugin_id", None) or manifest.get("id")
    return [str(plugin_id)] if plugin_id else []


def unload_package(package: str) -> None:
    """Forget a plugin package and its modules so the next import reads the files again."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]


def purge_plugin_modules(plugin_id: str) -> int:
    """Forget every module of a plugin (its package and submodules); return how many.

    The next load imports the plugin's files afresh, helpers included. Import caches
    are cleared too, so files added to the folder since are found.
    """
    package = package_name(plugin_id)
    with _LOCK:
        count = sum(1 for n in sys.modules if n == package or n.startswith(package + "."))
        unload_package(package)
    importlib.invalidate_caches()
    return count


def forget_bytecode(directory: Path, limit: int = 500) -> int:
    """Delete this interpreter's cached bytecode in a plugin folder; return the files deleted.

    Python trusts a ``.pyc`` whose source has the same size and modification second, so
    a file replaced by one of equal size (a colour changed, or mtimes kept by a copy or
    an archive) would run the old code. Only ``__pycache__`` files of this interpreter's
    tag are touched (the folder's and its packages'), at most ``limit`` of them.
    """
    suffix = f".{sys.implementation.cache_tag}.pyc"
    deleted = 0
    found = itertools.chain(directory.glob(f"__pycache__/*{suffix}"),  # the folder and
                            directory.glob(f"*/__pycache__/*{suffix}"))  # its packages
    with contextlib.suppress(OSError):
        for pyc in itertools.islice(found, limit):
            with contextlib.suppress(OSError):
                if not pyc.is_symlink() and pyc.is_file():
                    pyc.unlink()
                    deleted += 1
    return deleted


def local_module_names(directory: Path) -> set[str]:
    """Return the top-level module names a plugin directory provides to absolute imports."""
    names: set[str] = set()
    for entry in directory.iterdir():
        name = entry.name
        if name.startswith((".", "__")):
            continue
        if entry.is_file() and entry.suffix == ".py":
            names.add(entry.stem)
        elif entry.is_dir() and any(entry.glob("*.py")):
            names.add(name)
    return {
        n for n in names
        if n.isidentifier() and n not in sys.stdlib_module_names and n not in PROTECTED_NAMES
    }


def _create_package(package: str, directory: Path) -> ModuleType:
    root = sys.modules.get(ROOT_PACKAGE)
    if root is None:
        root = ModuleType(ROOT_PACKAGE, "Namespace of the loaded plugins' packages.")
        root.__path__ = []
        sys.modules[ROOT_PACKAGE] = root
    init = directory / "__init__.py"
    spec: importlib.machinery.ModuleSpec | None
    if init.is_file():
        spec = importlib.util.spec_from_file_location(
            package, init, submodule_search_locations=[str(directory)]
        )
    else:
        spec = importlib.machinery.ModuleSpec(package, None, is_package=True)
        spec.submodule_search_locations = [str(directory)]
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    if spec.loader is not None:
        spec.loader.exec_module(module)
    return module


class _AliasLoader(importlib.abc.Loader):
    """Serve a top-level name with the plugin-package module of the same file."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._spec: Any = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec  # the import system overwrote it with the alias spec


class _LocalModuleFinder(importlib.abc.MetaPathFinder):
    """Resolve a plugin's own top-level module names to its package's modules."""

    def __init__(self, package: str, names: set[str]) -> None:
        self.package = package
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in self.names:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(f"{self.package}.{fullname}"))


@contextlib.contextmanager
def _local_imports(package: str, names: set[str]) -> Iterator[None]:
    def owned(name: str) -> bool:
        return name.partition(".")[0] in names

    set_aside = {n: sys.modules.pop(n) for n in [n for n in sys.modules if owned(n)]}
    finder = _LocalModuleFinder(package, names)
    sys.meta_path.insert(0, finder)
    importlib.invalidate_caches()
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if owned(n)]:
            del sys.modules[name]
        sys.modules.update(set_aside)
