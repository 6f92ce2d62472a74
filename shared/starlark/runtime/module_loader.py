"""ModuleLoader: what an app's ``load`` statements reach, built once per run.

Names in the module catalog are the runtime's modules; other ``.star`` names are the
app's helper files (rewritten like the main file); any other name is an asset file
given as a ``file`` struct with ``readall()``. Everything else is refused, naming it.
"""

from __future__ import annotations

from typing import Any

import starlark

from shared.starlark.runtime import config_object, interpreter
from shared.starlark.runtime.app_files import App, read_bytes, read_source
from shared.starlark.runtime.errors import AppError
from shared.starlark.runtime.limits import Deadline, Limits
from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.blob import to_starlark
from shared.starlark.runtime.modules.catalog import CATALOG, Services
from shared.starlark.runtime.source_rewrite import rewrite

ASSET_TEXT = '''
def _readall(mode = "r"):
    return _py_read()

file = struct(path = _py_path, readall = _readall)
'''


class ModuleLoader:
    """Loads and caches the modules of one run; ``failure`` keeps the first refusal."""

    def __init__(self, app: App, services: Services, deadline: Deadline,
                 limits: Limits | None = None) -> None:
        self.app = app
        self.limits = limits or app.limits
        self.services = services
        self.deadline = deadline
        services.waited = deadline.waited
        self.failure: AppError | None = None
        self._done: dict[str, starlark.FrozenModule] = {}
        self._loading: set[str] = set()
        self._dialect = interpreter.dialect()
        self._globals = interpreter.globals_()

    def file_loader(self) -> starlark.FileLoader:
        """The interpreter's hook for ``load``."""
        return starlark.FileLoader(self.load)

    def load(self, name: str) -> starlark.FrozenModule:
        """The module ``name``; AppError (also kept in ``failure``) when unavailable."""
        if name in self._done:
            return self._done[name]
        if name in self._loading:
            raise self._fail(AppError(f'"{name}" loads itself through a cycle'))
        self._loading.add(name)
        try:
            module = self._build(name)
        finally:
            self._loading.discard(name)
        self._done[name] = module
        return module

    def _build(self, name: str) -> starlark.FrozenModule:
        if name in CATALOG:
            return self._evaluate(name, CATALOG[name](self.services), trusted=True)
        if name == config_object.CONFIG_MODULE:
            return self._evaluate(name, config_object.module(), trusted=True)
        try:
            if name.endswith(".star"):
                text = self.app.source if name == self.app.main_file else read_source(
                    self.app.folder, name, self.limits)
                return self._evaluate(name, ModuleSource(rewrite(text)), trusted=False)
            return self._asset(name)
        except AppError as err:
            raise self._fail(err) from None

    def _asset(self, name: str) -> starlark.FrozenModule:
        data = read_bytes(self.app.folder, name, self.limits.max_asset_bytes, "asset")
        holder: dict[str, Any] = {"data": data}
        source = ModuleSource(ASSET_TEXT, {"_py_read": lambda: to_starlark(holder["data"])})
        module = starlark.Module()
        module["_py_path"] = name
        return self._evaluate(name, source, trusted=True, module=module)

    def _evaluate(self, name: str, source: ModuleSource, *, trusted: bool,
                  module: starlark.Module | None = None) -> starlark.FrozenModule:
        module = module or starlark.Module()
        for key, function in source.functions.items():
            module.add_callable(key, function)
        ast = starlark.parse(name, source.text, self._dialect)
        if trusted:
            starlark.eval(module, ast, self._globals, self.file_loader())
        else:
            starlark.eval_with(interpreter.options(self.deadline, self.limits), module,
                               ast, self._globals, self.file_loader())
        return module.freeze()

    def _fail(self, err: AppError) -> AppError:
        if self.failure is None:
            self.failure = err
        return err
