from pathlib import Path

import pytest
from PIL import Image

from shared.starlark.frames_out import OutputError, write_frames


def _frames(count: int) -> list[Image.Image]:
    return [Image.new("RGB", (64, 32), (index * 40, 0, 255 - index * 40)) for index in range(count)]


@pytest.mark.parametrize("suffix", [".webp", ".gif"])
def test_an_animation_keeps_every_frame_and_its_delay(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"app{suffix}"
    assert write_frames(_frames(3), 120, str(out)) == [out]
    with Image.open(out) as image:
        assert image.n_frames == 3
        assert (image.width, image.height) == (64, 32)
        image.seek(2)
        assert image.convert("RGB").getpixel((5, 5)) == (80, 0, 175)
        assert image.info["duration"] == 120
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_a_folder_gets_one_png_per_frame_and_loses_stale_ones(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    write_frames(_frames(4), 50, f"{folder}/")
    (folder / "notes.txt").write_text("mine")
    written = write_frames(_frames(2), 50, str(folder))
    assert [p.name for p in written] == ["frame-0000.png", "frame-0001.png"]
    assert sorted(p.name for p in folder.iterdir()) == ["frame-0000.png", "frame-0001.png",
                                                        "notes.txt"]
    with Image.open(folder / "frame-0001.png") as image:
        assert image.getpixel((0, 0)) == (40, 0, 215)


@pytest.mark.parametrize(("out", "message"), [
    ("app.png", "must end in .webp or .gif, or be a folder"),
    ("missing/app.gif", "no such folder"),
])
def test_an_unusable_output_is_one_line(tmp_path: Path, out: str, message: str) -> None:
    with pytest.raises(OutputError, match=message):
        write_frames(_frames(1), 50, str(tmp_path / out))


def test_no_frames_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="no frames"):
        write_frames([], 50, str(tmp_path / "a.gif"))
