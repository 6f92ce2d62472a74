"""keep_dev_server_unloaded(): Werkzeug's development server stays out of the daemon.

The daemon serves with waitress and never runs Werkzeug's development server, yet
``import werkzeug`` imports ``werkzeug.serving`` for one name, and with it
``http.server``, ``http.client``, ``ssl`` and ``email``: about a sixth of the web
daemon's imports, paid on every start under a Pi's small CPU share. Before Werkzeug is
first imported, a stand-in module takes the place of ``werkzeug.serving``: the two
names Werkzeug and Flask import from it forward to the real module, and any other
name loads the real module and answers from it, so nothing behaves differently.

Only ``python -m web_service`` calls this; a process that imported Werkzeug already
(the tests, a WSGI host) is left as it is.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types
from typing import Any

NAME = "werkzeug.serving"


def keep_dev_server_unloaded() -> bool:
    """Install the stand-in unless Werkzeug is imported already; True when installed."""
    if "werkzeug" in sys.modules or NAME in sys.modules:
        return False
    stand_in = types.ModuleType(NAME, "Werkzeug's development server, loaded on first use.")
    stand_in.run_simple = _forward("run_simple")  # type: ignore[attr-defined]
    stand_in.is_running_from_reloader = _forward(  # type: ignore[attr-defined]
        "is_running_from_reloader")
    stand_in.__getattr__ = _from_real  # type: ignore[method-assign]
    sys.modules[NAME] = stand_in
    import werkzeug

    werkzeug.serving = stand_in
    return True


def _from_real(name: str) -> Any:
    if name.startswith("__"):  # the import system asks for __path__ and the like
        raise AttributeError(name)
    return getattr(real_module(), name)


def _forward(name: str) -> Any:
    def forward(*args: Any, **kwargs: Any) -> Any:
        return getattr(real_module(), name)(*args, **kwargs)

    forward.__name__ = forward.__qualname__ = name
    return forward


def real_module() -> types.ModuleType:
    """The real ``werkzeug.serving``, loaded in the stand-in's place the first time."""
    current = sys.modules.get(NAME)
    if current is not None and getattr(current, "__spec__", None) is not None:
        return current
    import werkzeug

    spec = importlib.machinery.PathFinder.find_spec(NAME, werkzeug.__path__)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot find {NAME}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)
    werkzeug.serving = module
    return module
