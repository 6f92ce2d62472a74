"""LAYOUT_WIDGETS: the app format's layout and drawing widgets, by the names apps call them.

The runtime looks widgets up here by name (``render.Row(...)``) and calls them
with the app's keyword arguments as plain Python values.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.starlark.render.box import Box, Padding
from shared.starlark.render.flex import Column, Row, Stack
from shared.starlark.render.plot import Plot
from shared.starlark.render.shapes import Circle, PieChart
from shared.starlark.render.timing import Animation, Sequence
from shared.starlark.render.widget import Widget

LAYOUT_WIDGETS: dict[str, Callable[..., Widget]] = {
    "Box": Box,
    "Padding": Padding,
    "Row": Row,
    "Column": Column,
    "Stack": Stack,
    "Animation": Animation,
    "Sequence": Sequence,
    "Circle": Circle,
    "PieChart": PieChart,
    "Plot": Plot,
}
