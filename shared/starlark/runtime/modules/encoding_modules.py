"""encoding/json.star and encoding/base64.star."""

from __future__ import annotations

import base64 as b64
import binascii
import json as pyjson
from typing import Any

from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.blob import as_bytes, to_starlark

JSON_TEXT = '''
json = struct(encode = _py_encode, decode = _py_decode, indent = _py_indent)
'''

BASE64_TEXT = '''
base64 = struct(encode = _py_encode, decode = _py_decode)
'''


def _encode(value: Any) -> str:
    return pyjson.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _decode(text: str, default: Any = None) -> Any:
    try:
        return pyjson.loads(text)
    except (TypeError, ValueError) as err:
        if default is not None:
            return default
        raise ValueError(f"json.decode: {err}") from err


def _indent(text: str, prefix: str = "", indent: str = "\t") -> str:
    lines = pyjson.dumps(pyjson.loads(text), indent=indent, ensure_ascii=False).splitlines()
    return "\n".join(lines[:1] + [prefix + line for line in lines[1:]])


def json_module() -> ModuleSource:
    """encoding/json.star."""
    return ModuleSource(JSON_TEXT, {"_py_encode": _encode, "_py_decode": _decode,
                                    "_py_indent": _indent})


def _b64_encode(value: Any, encoding: str = "standard") -> str:
    data = as_bytes(value) or b""
    coded = b64.urlsafe_b64encode(data) if "url" in encoding else b64.b64encode(data)
    text = coded.decode("ascii")
    return text.rstrip("=") if "raw" in encoding else text


def _b64_decode(text: str, encoding: str = "standard") -> Any:
    padded = text.strip() + "=" * (-len(text.strip()) % 4)
    try:
        data = (b64.urlsafe_b64decode(padded) if "url" in encoding
                else b64.b64decode(padded, validate=False))
    except (binascii.Error, ValueError) as err:
        raise ValueError(f"base64.decode: {err}") from err
    return to_starlark(data)


def base64_module() -> ModuleSource:
    """encoding/base64.star (decoded binary data is a Blob: see blob.py)."""
    return ModuleSource(BASE64_TEXT, {"_py_encode": _b64_encode, "_py_decode": _b64_decode})
