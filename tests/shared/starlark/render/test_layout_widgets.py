"""LAYOUT_WIDGETS: every layout widget under the name apps call it, built from keywords."""

from __future__ import annotations

from shared.starlark.render.layout_widgets import LAYOUT_WIDGETS
from shared.starlark.render.widget import Widget
from tests.shared.starlark.render.frame_maps import picture


def test_every_layout_widget_is_there_by_its_app_name() -> None:
    assert set(LAYOUT_WIDGETS) == {"Box", "Padding", "Row", "Column", "Stack", "Animation",
                                   "Sequence", "Circle", "PieChart", "Plot"}


def test_widgets_built_by_name_from_keywords_nest_as_apps_write_them() -> None:
    make = LAYOUT_WIDGETS
    dot = make["Box"](width=1, height=1, color="#f00")
    # Lists arrive where apps wrote tuples: values cross from Starlark as JSON types.
    tree = make["Column"](children=[
        make["Padding"](child=dot, pad=[1, 0, 0, 0]),
        make["Row"](children=[make["Circle"](color="#00f", diameter=1),
                              make["Plot"](data=[[0, 0], [1, 0]], width=2, height=1,
                                           color="#0f0")]),
        make["Stack"](children=[make["Animation"](children=[dot]),
                                make["Sequence"](children=[dot])]),
        make["PieChart"](colors=["#fff"], weights=[1], diameter=1),
    ])
    assert isinstance(tree, Widget)
    # A one-pixel disc covers pi/4 of its pixel, so it shows dimmed ("?").
    assert picture(tree, 3, 4) == [".r.", "?gg", "r..", "?.."]
