import pytest

from shared.starlark.render.color import parse_color
from shared.starlark.render.errors import WidgetError


@pytest.mark.parametrize(("text", "rgba"), [
    ("#f00", (255, 0, 0, 255)), ("0f08", (0, 255, 0, 136)),
    ("#123456", (0x12, 0x34, 0x56, 255)), ("#12345678", (0x12, 0x34, 0x56, 0x78)),
])
def test_hex_colours_in_every_length(text: str, rgba: tuple[int, int, int, int]) -> None:
    assert parse_color(text, "Box") == rgba


@pytest.mark.parametrize("bad", ["", "#", "#12", "#12345", "red", "#gggggg", 255])
def test_anything_else_names_widget_and_argument(bad: object) -> None:
    with pytest.raises(WidgetError, match="^Box: color "):
        parse_color(bad, "Box")
