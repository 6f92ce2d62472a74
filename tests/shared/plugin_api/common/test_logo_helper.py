"""LogoHelper: real PNG files sized and cached, paths kept in their folder, downloads."""

from __future__ import annotations

import io
import logging
import time
from pathlib import Path

import pytest
from PIL import Image

from shared.plugin_api.common import logo_helper as module
from shared.plugin_api.common.logo_helper import LogoHelper
from shared.plugin_api.logos import downloader as logo_downloader
from tests.shared.damaged_png import bad_checksum_png, broken_chunk_png
from tests.shared.loopback_http import fixed, hold, late, serving


def png_bytes(size: tuple[int, int], color: tuple[int, ...] = (200, 10, 10), mode: str = "RGB"
              ) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, color).save(out, "PNG")
    return out.getvalue()


def write_png(path: Path, size: tuple[int, int] = (40, 20), **kwargs: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png_bytes(size, **kwargs))  # type: ignore[arg-type]
    return path


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def logos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A logo folder inside the assets directory, where downloads may be written."""
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    folder = tmp_path / "assets" / "logos"
    folder.mkdir(parents=True)
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


def test_a_damaged_logo_file_answers_none(logos: Path, caplog: pytest.LogCaptureFixture
                                          ) -> None:
    (logos / "CHUNK.png").write_bytes(broken_chunk_png())
    (logos / "CUT.png").write_bytes(png_bytes((40, 40))[:60])
    helper = LogoHelper(64, 32)
    with caplog.at_level(logging.WARNING):
        assert helper.load_logo("CHUNK", logos / "CHUNK.png") is None
        assert helper.load_logo("CUT", logos / "CUT.png") is None
    assert "SyntaxError" in caplog.text
    placeholder = helper.load_logo_with_download("CHUNK", logos / "CHUNK.png", None, 10, 10)
    assert placeholder is not None and placeholder.size == (10, 10)


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


def test_a_download_with_a_bad_checksum_gives_a_placeholder_and_stores_nothing(
    logos: Path,
) -> None:
    with serving({"/x.png": fixed(200, "image/png", bad_checksum_png())}) as srv:
        logo = LogoHelper(64, 32).load_logo_with_download(
            "CRC", logos / "CRC.png", srv.url("/x.png"), max_width=12, max_height=12)
        assert srv.hits["/x.png"] == 1
    assert logo is not None and logo.getpixel((0, 0)) == (200, 200, 200, 255)  # placeholder
    assert files_under(logos) == set()


def test_a_server_that_never_answers_holds_each_call_at_most_the_budget(logos: Path) -> None:
    budget = logo_downloader.DOWNLOAD_BUDGET
    with serving({}) as srv:
        srv.routes.update({"/A.png": hold(srv, 30), "/B.png": hold(srv, 30)})
        helper = LogoHelper(64, 32)
        started = time.monotonic()
        home = helper.load_logo_with_download("A", logos / "A.png", srv.url("/A.png"), 8, 8)
        away = helper.load_logo_with_download("B", logos / "B.png", srv.url("/B.png"), 8, 8)
        both = time.monotonic() - started
        assert home is not None and away is not None  # placeholders, at once
        assert both < 2 * budget + 1.0
        started = time.monotonic()  # failed moments ago: no wait at all now
        helper.load_logo_with_download("A", logos / "A.png", srv.url("/A.png"), 8, 8)
        assert time.monotonic() - started < 0.5
        assert srv.hits["/A.png"] == 1
    assert files_under(logos) == set()


def test_a_download_that_outlasts_the_budget_is_there_for_a_later_call(logos: Path) -> None:
    budget = logo_downloader.DOWNLOAD_BUDGET
    with serving({}) as srv:
        srv.routes["/LAL.png"] = late(srv, budget + 0.6, png_bytes((30, 30), (1, 2, 3)))
        helper = LogoHelper(64, 32)
        started = time.monotonic()
        first = helper.load_logo_with_download("LAL", logos / "LAL.png", srv.url("/LAL.png"))
        assert time.monotonic() - started < budget + 0.5
        assert first is not None and first.getpixel((0, 0)) == (200, 200, 200, 255)
        deadline = time.monotonic() + 10
        while not (logos / "LAL.png").is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        later = helper.load_logo_with_download("LAL", logos / "LAL.png", srv.url("/LAL.png"))
        assert srv.hits["/LAL.png"] == 1
    assert later is not None and later.getpixel((0, 0)) == (1, 2, 3, 255)


def test_without_a_logo_dir_downloads_stay_in_the_assets_cache_and_plugins_dirs(
    tmp_path: Path, logos: Path,
) -> None:
    outside = tmp_path / "elsewhere" / "DAL.png"
    with serving({"/x.png": fixed(200, "image/png", png_bytes((8, 8)))}) as srv:
        logo = LogoHelper(64, 32).load_logo_with_download("DAL", outside, srv.url("/x.png"))
        assert srv.hits["/x.png"] == 0
    assert logo is not None and logo.getpixel((0, 0)) == (200, 200, 200, 255)  # placeholder
    assert not outside.parent.exists()


@pytest.mark.parametrize("name", ["x//y", "./x/y", "x/./y", "/x/y", "x/y/"])
def test_a_team_name_steering_the_path_by_any_spelling_is_refused(
    tmp_path: Path, logos: Path, name: str,
) -> None:
    write_png(logos / "x" / "y.png")  # what a steered read would find
    with serving({"/x.png": fixed(200, "image/png", png_bytes((8, 8)))}) as srv:
        helper = LogoHelper(64, 32)
        for base in (logos, tmp_path):
            built = base / f"{name}.png"
            assert helper.load_logo(name, built) is None
            assert helper.load_logo(name, f"{base}/{name}.png") is None
            assert helper.load_logo_with_download(name, built, srv.url("/x.png")) is None
        assert srv.hits["/x.png"] == 0
    assert files_under(tmp_path) == {logos / "x" / "y.png"}


def test_with_a_logo_dir_a_team_name_may_not_add_folders(logos: Path) -> None:
    write_png(logos / "x" / "y.png")
    write_png(logos / "BRK_B.png")
    helper = LogoHelper(64, 32, logo_dir=logos)
    assert helper.load_logo("x/y", logos / "x/y.png") is None
    assert helper.load_logo("BRK/B", logos / "BRK_B.png") is not None


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
