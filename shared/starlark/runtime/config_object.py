"""The ``config`` object ``main`` receives: pixlet's get, str and bool over string values."""

from __future__ import annotations

from shared.starlark.runtime.modules.base import ModuleSource

CONFIG_MODULE = "@ledpanel/config"

# Go's strconv.ParseBool; anything else is false, as pixlet's config.bool gives.
TEXT = '''
_TRUE = ["1", "t", "T", "TRUE", "true", "True"]

def make_config(values):
    def _get(key, default = None):
        return values.get(key, default)

    def _bool(key, default = None):
        if key not in values:
            return default
        return values[key] in _TRUE

    return struct(get = _get, str = _get, bool = _bool)
'''


def module() -> ModuleSource:
    """The internal module the runner loads ``make_config`` from."""
    return ModuleSource(TEXT)
