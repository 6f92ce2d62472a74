"""The ``src.*`` import names of the existing plugin API, served by our own modules.

Community plugins import ``src.plugin_system.base_plugin``, ``src.common`` and the
like. One finder on ``sys.meta_path`` (installed once by the plugin loader,
``install()``) maps those names to ours through ``ALIASES``, the only table of them:

- a module alias (``src.common.scroll_helper``) is the very same module object as
  ours, so class identity and ``isinstance`` hold across the two names;
- a package alias (``src``, ``src.common``, ``src.plugin_system``) is a small module
  of its own that lends out its target's attributes (the same objects) and its
  aliased sub-modules;
- any other ``src.*`` name fails: ``import src.x`` with ModuleNotFoundError and
  ``from src.common import X`` with ImportError, the message naming the module, the
  plugin importing it, and that ledpanel does not provide it; ``hasattr(src.common,
  "X")`` is False (a missing attribute otherwise raises ``NotProvided``, an
  AttributeError with the same message).

No ``src/`` folder exists and no ``sys.path`` entry is added. Our own code never
imports ``src`` (the loader never lets a plugin's own file shadow it either).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType, ModuleType
from typing import Any

from shared.plugin_api.boundary import current_plugin

ROOT = "src"
# src name -> our module (None: a package with nothing of its own, only sub-modules).
ALIASES: dict[str, str | None] = {
    "src": None,
    "src.plugin_system": "shared.plugin_system",
    "src.plugin_system.base_plugin": "shared.plugin_api.base_plugin",
    "src.plugin_system.plugin_manager": "shared.plugin_system.manager",
    "src.plugin_system.testing": "shared.plugin_system.testing",
    "src.plugin_system.testing.harness": "shared.plugin_system.testing.harness",
    "src.plugin_system.testing.loading": "shared.plugin_system.testing.loading",
    "src.plugin_system.testing.mocks": "shared.plugin_system.testing.mocks",
    "src.plugin_system.testing.sizes": "shared.plugin_system.testing.sizes",
    "src.plugin_system.testing.plugin_test_base": "shared.plugin_system.testing.plugin_case",
    "src.plugin_system.testing.visual_display_manager": "shared.plugin_system.testing.visual",
    "src.plugin_system.testing.bounds_display_manager": "shared.plugin_system.testing.bounds",
    "src.common": "shared.plugin_api.common",
    "src.common.scroll_helper": "shared.plugin_api.common.scroll_helper",
    "src.common.logo_helper": "shared.plugin_api.common.logo_helper",
    "src.common.text_helper": "shared.plugin_api.common.text_helper",
    "src.common.api_helper": "shared.plugin_api.common.api_helper",
    "src.adaptive_layout": "shared.plugin_api.common.adaptive_layout",
    "src.adaptive_images": "shared.plugin_api.common.image_fit",
    "src.cache_manager": "shared.plugin_api.cache.manager",
    "src.config_manager": "shared.plugin_api.config_manager",
    "src.display_manager": "display_service.plugins.display_manager",
    "src.font_manager": "shared.fonts.manager",
    "src.logo_downloader": "shared.plugin_api.logos.downloader",
    "src.background_data_service": "shared.plugin_api.background.data",
    "src.skin_system": "shared.plugin_api.skins.surface",
}
PACKAGES = frozenset(n for n in ALIASES if any(o.startswith(n + ".") for o in ALIASES))
_importing = threading.local()


def not_provided(name: str) -> str:
    """Return the message for a ``src.*`` name ledpanel does not provide."""
    plugin = getattr(_importing, "plugin", None) or current_plugin()
    who = f"plugin {plugin!r}" if plugin else "a plugin"
    return (
        f"{who} imports {name}, which is not provided by ledpanel "
        f"(the src.* names it provides are listed in docs/PLUGINS.md)"
    )


@contextlib.contextmanager
def importing(plugin_id: str) -> Iterator[None]:
    """Name ``plugin_id`` in the errors of ``src.*`` imports made on this thread meanwhile."""
    previous = getattr(_importing, "plugin", None)
    _importing.plugin = plugin_id
    try:
        yield
    finally:
        _importing.plugin = previous


class NotProvided(AttributeError):
    """A name an alias package does not lend out: ``hasattr`` answers False for it."""


# ``from pkg import X`` asks for X through this importlib function before anything else.
_FROM_IMPORT = getattr(importlib._bootstrap, "_handle_fromlist", None)


def _missing(full: str, caller: FrameType) -> Exception:
    """Return the error for a missing ``src`` attribute, fitting what asked for it.

    No class can be both AttributeError and ImportError (CPython refuses the pair:
    their instance layouts conflict), so the caller decides. A ``from`` import gets
    ImportError: given an AttributeError, CPython would swallow the finder's message
    and say only "cannot import name 'X' from 'src.common' (unknown location)".
    Anything else (``hasattr``, ``getattr`` with a default) gets ``NotProvided``.
    """
    message = not_provided(full)
    if _FROM_IMPORT is not None and caller.f_code is getattr(_FROM_IMPORT, "__code__", None):
        return ImportError(message, name=full)
    return NotProvided(message, name=full.rpartition(".")[2])


class _AliasPackage(ModuleType):
    """A ``src`` package: its target's attributes and its aliased sub-modules."""

    _ledpanel_target: ModuleType | None = None

    def __getattr__(self, name: str) -> Any:
        if name == "__all__":  # ``from src.common import *``: what the target exports
            target = self._ledpanel_target
            return list(getattr(target, "__all__", ())) if target is not None else []
        if name.startswith("_"):
            raise AttributeError(name)
        full = f"{self.__name__}.{name}"
        if full in ALIASES:
            return importlib.import_module(full)
        target = self._ledpanel_target
        if target is not None and hasattr(target, name):
            return getattr(target, name)
        raise _missing(full, sys._getframe(1))

    def __dir__(self) -> list[str]:
        own = [n.rpartition(".")[2] for n in ALIASES if n.rpartition(".")[0] == self.__name__]
        target = self._ledpanel_target
        return sorted({*own, *(dir(target) if target is not None else ())})


class _AliasLoader(importlib.abc.Loader):
    """Serve one ``src`` name: our module itself, or an alias package over it."""

    def __init__(self, target: str | None, package: bool) -> None:
        self.target = target
        self.package = package
        self._spec: Any = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        target = importlib.import_module(self.target) if self.target else None
        if self.package:
            module = _AliasPackage(spec.name, getattr(target, "__doc__", None))
            module._ledpanel_target = target
            return module
        assert target is not None
        self._spec = target.__spec__
        return target

    def exec_module(self, module: ModuleType) -> None:
        if not self.package:
            module.__spec__ = self._spec  # the import system set it to the alias spec


class SrcFinder(importlib.abc.MetaPathFinder):
    """Resolve ``src`` and ``src.*`` names through ``ALIASES``; refuse the others."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ROOT and not fullname.startswith(ROOT + "."):
            return None
        if fullname not in ALIASES:
            raise ModuleNotFoundError(not_provided(fullname), name=fullname)
        package = fullname in PACKAGES
        loader = _AliasLoader(ALIASES[fullname], package)
        spec = importlib.util.spec_from_loader(fullname, loader, is_package=package)
        if spec is not None and package:
            spec.submodule_search_locations = []
        return spec


_LOCK = threading.Lock()


def install() -> None:
    """Put the ``src.*`` finder first on ``sys.meta_path`` (once per process)."""
    with _LOCK:
        if not any(isinstance(finder, SrcFinder) for finder in sys.meta_path):
            sys.meta_path.insert(0, SrcFinder())
