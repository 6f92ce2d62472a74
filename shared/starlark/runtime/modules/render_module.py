"""render.star and animation.star: the render package's widgets, built from Starlark.

Widgets cross as opaque objects: a child given to a parent comes back to Python as
the widget itself. ``render.Image`` takes its ``src`` as a string or a Blob (see
blob.py) and receives bytes. The layout widgets themselves skip ``None`` items of a
``children`` list, as pixlet does. ``canvas`` answers for the size being rendered.
"""

from __future__ import annotations

from typing import Any

import starlark

from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.blob import as_bytes


def registries() -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(render widgets, animation widgets, font names) from the render package."""
    from shared.starlark.render.animation import ANIMATION_WIDGETS
    from shared.starlark.render.content_widgets import CONTENT_WIDGETS, FONT_NAMES
    from shared.starlark.render.layout_widgets import LAYOUT_WIDGETS
    from shared.starlark.render.root import Root

    widgets: dict[str, Any] = {**LAYOUT_WIDGETS, **CONTENT_WIDGETS, "Root": Root}
    return widgets, dict(ANIMATION_WIDGETS), sorted(FONT_NAMES)


def _build(table: dict[str, Any], name: str, args: list[Any],
           kwargs: dict[str, Any]) -> Any:
    if name == "Image":
        if args:
            args = [as_bytes(args[0]) or args[0], *args[1:]]
        if "src" in kwargs:
            kwargs["src"] = as_bytes(kwargs["src"]) or kwargs["src"]
    return starlark.OpaquePythonObject(table[name](*args, **kwargs))


def _struct(names: list[str]) -> str:
    # partial over the Python function itself: no Starlark frame per widget built.
    fields = ", ".join(f"{name} = partial(_py_widget, {name!r})" for name in names)
    return f"struct({fields})" if fields else "struct()"


def render_module(width: int, height: int) -> ModuleSource:
    """render.star (and its ``canvas``) for frames of ``width`` x ``height``."""
    widgets, animation, fonts = registries()
    every = {**animation, **widgets}
    members = _struct(sorted(every))[:-1] + (", " if every else "")
    text = f'''
render = {members}fonts = {{f: f for f in {fonts!r}}})
canvas = struct(width = lambda: {width}, height = lambda: {height},
                is2x = lambda: {width >= 128}, size = lambda: ({width}, {height}))
'''
    return ModuleSource(text, {
        "_py_widget": lambda name, *args, **kwargs: _build(every, name, list(args), kwargs)})


def animation_module() -> ModuleSource:
    """animation.star: the keyframe transforms."""
    _, animation, _ = registries()
    text = f"animation = {_struct(sorted(animation))}\n"
    return ModuleSource(text, {
        "_py_widget": lambda name, *args, **kwargs: _build(animation, name, list(args), kwargs)})
