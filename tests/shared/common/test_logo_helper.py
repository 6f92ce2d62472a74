"""LogoHelper: real PNG files sized and cached, paths kept in their folder, downloads."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from PIL import Image

from shared.common import logo_helper as module
from shared.common.logo_helper import LogoHelper
from tests.shared.loopback_http import fixed, serving


def png_bytes(size: tuple[int, int], color: tuple[int, ...] = (200, 10, 10), mode: str = "RGB"
              ) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, color).save(out, "PNG")
    return out.getvalue()


def write_png(path: Path, size: tuple[int, int] = (40, 20), **kwargs: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png_bytes(size, **kwargs))  # type: ignore[arg-type]
    return path


@pytest.fixture
def logos(tmp_path: Path) -> Path:
    folder = tmp_path / "logos"
    folder.mkdir()
    return folder


def test_a_logo_is_rgba_and_shrunk_into_the_box_keeping_its_shape(logos: Path) -> None:
    path = write_png(logos / "LAL.png", (100, 50))
    logo = LogoHelper(128, 32).load_logo("LAL", path, max_width=32, max_height=32)
    assert logo is not None
    assert logo.mode == "RGBA" and logo.size == (32, 16)
    assert logo.getpixel((5, 5)) == (200, 10, 10, 255)


def test_the_default_box_is_one_and_a_half_panels(logos: Path) -> None:
    big = write_png(logos / "BIG.png", (300, 300))
    small = write_png(logos / "SMALL.png", (10, 8))
    helper = LogoHelper(64, 32)
    assert helper.load_logo("BIG", big).size == (48, 48)  # type: ignore[union-attr]
    assert helper.load_logo("SMALL", small).size == (10, 8)  # type: ignore[union-attr]


def test_a_missing_or_broken_logo_answers_none_with_a_warning(
    logos: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (logos / "BAD.png").write_bytes(b"not an image at all")
    helper = LogoHelper(64, 32)
    with caplog.at_level(logging.WARNING):
        assert helper.load_logo("NOPE", logos / "NOPE.png") is None
        assert helper.load_logo("BAD", logos / "BAD.png") is None
    assert "'NOPE' not found" in caplog.text
    assert "'BAD'" in caplog.text and "could not be read" in caplog.text


def test_a_logo_with_too_many_pixels_is_not_decoded(logos: Path) -> None:
    path = write_png(logos / "HUGE.png", (4097, 4096), color=0, mode="1")
    assert LogoHelper(64, 32).load_logo("HUGE", path) is None


def test_the_cache_serves_the_same_image_and_holds_at_most_cache_size(logos: Path) -> None:
    paths = [write_png(logos / f"T{i}.png", (20, 20)) for i in range(3)]
    helper = LogoHelper(64, 32, cache_size=2)
    first = helper.load_logo("T0", paths[0])
    paths[0].unlink()  # served from memory from now on
    assert helper.load_logo("T0", paths[0]) is first
    helper.load_logo("T1", paths[1])
    helper.load_logo("T2", paths[2])  # evicts T0, the least recently used
    assert helper.get_cache_stats() == {
        "cached_logos": 2, "cache_size_limit": 2, "cache_usage_percent": 100.0,
    }
    assert helper.load_logo("T0", paths[0]) is None  # gone from memory and from disk
    helper.clear_cache()
    assert helper.get_cache_stats()["cached_logos"] == 0


def test_each_box_size_is_cached_apart(logos: Path) -> None:
    path = write_png(logos / "AAPL.png", (64, 64))
    helper = LogoHelper(64, 32)
    assert helper.load_logo("AAPL", path, 16, 16).size == (16, 16)  # type: ignore[union-attr]
    assert helper.load_logo("AAPL", path, 32, 32).size == (32, 32)  # type: ignore[union-attr]


def test_a_path_climbing_out_with_dots_is_refused(tmp_path: Path, logos: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    write_png(tmp_path / "secret.png")
    with caplog.at_level(logging.WARNING):
        assert LogoHelper(64, 32).load_logo("x", logos / ".." / "secret.png") is None
    assert "refused" in caplog.text


def test_a_path_built_from_a_team_name_holding_a_path_is_refused(
    tmp_path: Path, logos: Path
) -> None:
    outside = write_png(tmp_path / "elsewhere" / "x.png")
    helper = LogoHelper(64, 32)
    name = str(outside.with_suffix(""))  # "/tmp/.../elsewhere/x", as a feed might send
    assert logos / f"{name}.png" == outside  # joining an absolute name leaves the folder
    assert helper.load_logo(name, logos / f"{name}.png") is None
    write_png(logos / "BRK_B.png")
    assert helper.load_logo("BRK/B", logos / "BRK_B.png") is not None  # a name, not a path


def test_with_a_logo_dir_nothing_outside_it_is_read(tmp_path: Path, logos: Path) -> None:
    outside = write_png(tmp_path / "outside.png")
    (logos / "LINK.png").symlink_to(outside)
    write_png(logos / "LAL.png")
    helper = LogoHelper(64, 32, logo_dir=logos)
    assert helper.load_logo("LAL") is not None  # <logo_dir>/<name>.png
    assert helper.load_logo("LAL", "LAL.png") is not None  # relative to the folder
    assert helper.load_logo("x", outside) is None  # absolute path elsewhere
    assert helper.load_logo("x", logos / "LINK.png") is None  # symlink out of the folder
    for name in ("../outside", "/etc/passwd", "..", "a/../../outside", ""):
        assert helper.load_logo(name) is None


def test_a_team_name_becomes_one_plain_file_name() -> None:
    assert module.safe_logo_name("TA&M") == "TA&M"
    assert module.safe_logo_name("../../etc/x") == ".._.._etc_x"
    assert module.safe_logo_name("..") is None
    assert module.safe_logo_name(" ") is None


def test_a_missing_logo_is_downloaded_once_then_read_from_disk(logos: Path) -> None:
    with serving({"/LAL.png": fixed(200, "image/png", png_bytes((80, 80), (1, 2, 3)))}) as srv:
        helper = LogoHelper(64, 32)
        logo = helper.load_logo_with_download("LAL", logos / "LAL.png", srv.url("/LAL.png"),
                                              max_width=20, max_height=20)
        again = helper.load_logo_with_download("LAL", logos / "LAL.png", srv.url("/LAL.png"))
        assert srv.hits["/LAL.png"] == 1
    assert logo is not None and logo.size == (20, 20)
    assert again is not None and again.size == (48, 48)  # the default box, 96x48
    with Image.open(logos / "LAL.png") as stored:
        assert stored.size == (80, 80)


def test_a_download_that_is_no_image_stores_nothing_and_waits_before_trying_again(
    logos: Path,
) -> None:
    with serving({"/x.png": fixed(200, "image/png", b"<html>not found</html>")}) as srv:
        helper = LogoHelper(64, 32)
        for _ in range(2):
            placeholder = helper.load_logo_with_download(
                "NYG", logos / "NYG.png", srv.url("/x.png"), max_width=24, max_height=12)
            assert placeholder is not None and placeholder.size == (24, 12)
            assert placeholder.getpixel((0, 0)) == (200, 200, 200, 255)  # the outline
        assert srv.hits["/x.png"] == 1
    assert list(logos.iterdir()) == []


def test_a_download_outside_the_folder_is_never_fetched(tmp_path: Path, logos: Path) -> None:
    with serving({"/x.png": fixed(200, "image/png", png_bytes((8, 8)))}) as srv:
        helper = LogoHelper(64, 32, logo_dir=logos)
        assert helper.load_logo_with_download("x", tmp_path / "x.png", srv.url("/x.png")) is None
        assert helper.load_logo_with_download(
            "x", logos / ".." / "x.png", srv.url("/x.png")) is None
        assert srv.hits["/x.png"] == 0
    assert not (tmp_path / "x.png").exists()


def test_an_unreachable_logo_url_gives_a_placeholder(logos: Path) -> None:
    helper = LogoHelper(32, 16)
    logo = helper.load_logo_with_download("BOS", logos / "BOS.png", "http://127.0.0.1:9/x.png")
    assert logo is not None and logo.size == (48, 24)
    assert not (logos / "BOS.png").exists()


def test_variations_and_normalised_abbreviations() -> None:
    helper = LogoHelper(64, 32)
    assert helper.get_logo_variations("TA&M") == ["TA&M", "TAANDM", "TAMU", "TEXASAM"]
    assert helper.get_logo_variations("LAL") == ["LAL"]
    assert helper.normalize_abbreviation(" ta&m ") == "TAANDM"
    assert helper.normalize_abbreviation("New York") == "NEWYORK"
