"""secret.star (nothing is decrypted here: apps fall back) and xpath.star (not provided)."""

from __future__ import annotations

from shared.starlark.runtime.modules.base import ModuleSource

SECRET_TEXT = '''
def _decrypt(value):
    return None

secret = struct(decrypt = _decrypt)
'''

XPATH_TEXT = '''
def _loads(text):
    return _py_refuse()

xpath = struct(loads = _loads)
'''


def secret_module() -> ModuleSource:
    """secret.star: ``decrypt`` always gives None, as pixlet does without the app's key."""
    return ModuleSource(SECRET_TEXT)


def _refuse() -> None:
    raise ValueError("xpath.star is not available in this runtime")


def xpath_module() -> ModuleSource:
    """xpath.star: loading works, using it names what is missing."""
    return ModuleSource(XPATH_TEXT, {"_py_refuse": _refuse})
