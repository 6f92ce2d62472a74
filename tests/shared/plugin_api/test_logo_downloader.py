"""Team logos for community sports plugins: names, downloads over loopback HTTP, limits."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from shared.http_fetch import FetchError, get_bytes
from shared.plugin_api.logos import downloader as logos
from shared.plugin_api.logos import placeholder as logo_placeholder
from shared.plugin_api.logos.downloader import LogoDownloader, download_missing_logo
from tests.shared.damaged_png import bad_checksum_png, broken_chunk_png
from tests.shared.loopback_http import Server, drip, fixed, hold, late, serving, stream


def png(size: tuple[int, int] = (40, 30), color: tuple[int, int, int] = (200, 10, 10)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def noise_png() -> bytes:
    """A real PNG over the size limit (noise does not compress) with few enough pixels."""
    side = 1100
    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "PNG")
    data = out.getvalue()
    assert len(data) > logos.MAX_LOGO_BYTES and side * side <= logos.MAX_LOGO_PIXELS
    return data


@pytest.fixture
def assets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The assets directory logos may be written to (a temp dir, not the repository)."""
    directory = tmp_path / "assets"
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(directory))
    return directory


@pytest.fixture
def server() -> Iterator[Server]:
    big = noise_png()
    with serving({}) as running:
        running.routes.update({
            "/logo.png": fixed(200, "image/png", png()),
            "/missing.png": fixed(404, "text/plain", b"not here"),
            "/page.png": fixed(200, "text/html", b"<html><body>not a logo</body></html>"),
            "/huge.png": fixed(200, "image/png", big),
            "/huge-unsized.png": stream(big),
            "/crc.png": fixed(200, "image/png", bad_checksum_png()),
            "/chunk.png": fixed(200, "image/png", broken_chunk_png()),
            "/late.png": late(running, logos.DOWNLOAD_BUDGET + 0.6, png()),
            "/slow.png": hold(running, 20),
            "/drip.png": drip(running, 20),
        })
        yield running


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize(("given", "normalized"), [
    ("lal", "LAL"), ("TA&M", "TAANDM"), ("A/B", "A_B"), ("", ""), ("CON", "CONN"),
    ('a\\b:c*d?e"f<g>h|i', "A_B_C_D_E_F_G_H_I"), ("..", ".."),
])
def test_normalize_abbreviation_gives_the_existing_file_names(given: str, normalized: str
                                                              ) -> None:
    assert LogoDownloader.normalize_abbreviation(given) == normalized


def test_filename_variations_are_the_upper_cased_name_then_the_normalized_one() -> None:
    assert LogoDownloader.get_logo_filename_variations("TA&M") == ["TA&M.png", "TAANDM.png"]
    assert LogoDownloader.get_logo_filename_variations("dal") == ["DAL.png", "DAL.png"]
    assert LogoDownloader.get_logo_filename_variations("CON") == ["CON.png", "CONN.png"]


def test_logo_directories_follow_the_league_under_the_assets_dir(assets: Path) -> None:
    downloader = LogoDownloader()
    assert downloader.get_logo_directory("nfl") == str(assets / "sports" / "nfl_logos")
    assert downloader.get_logo_directory("ncaam") == str(assets / "sports" / "ncaa_logos")
    assert downloader.get_logo_directory("soccer_eng.1") == str(assets / "sports" / "soccer_logos")
    assert downloader.get_logo_directory("afl") == str(assets / "sports" / "afl_logos")
    with pytest.raises(ValueError, match="unsafe league"):
        downloader.get_logo_directory("../etc")


def test_a_missing_logo_is_downloaded_as_an_rgba_png(assets: Path, server: Server) -> None:
    path = Path(LogoDownloader().get_logo_directory("nfl")) / "DAL.png"

    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/logo.png")) is True

    with Image.open(path) as image:
        assert image.format == "PNG" and image.mode == "RGBA" and image.size == (40, 30)
        assert image.getpixel((0, 0)) == (200, 10, 10, 255)
    assert files_under(assets) == {path}  # no temp file left beside it
    # There now: no second request.
    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/logo.png")) is True
    assert server.hits["/logo.png"] == 1


def test_without_a_url_the_team_record_names_the_logo(assets: Path, server: Server,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    record = f'{{"team": {{"logos": [{{"href": "{server.url("/logo.png")}"}}]}}}}'
    server.routes["/espn/football/nfl/teams/6"] = fixed(200, "application/json", record.encode())
    monkeypatch.setattr(LogoDownloader, "API_BASE", server.url("/espn"))
    path = assets / "sports" / "nfl_logos" / "DAL.png"

    assert download_missing_logo("nfl", "6", "DAL", path) is True
    assert path.is_file() and not logos.is_placeholder_logo(path)


@pytest.mark.parametrize("route", ["/missing.png", "/page.png", "/huge.png",
                                   "/huge-unsized.png", "/crc.png", "/chunk.png"])
def test_a_logo_that_is_not_a_small_image_is_refused(assets: Path, server: Server,
                                                      route: str) -> None:
    path = assets / "sports" / "nfl_logos" / "DAL.png"

    assert download_missing_logo("nfl", "6", "DAL", path, server.url(route),
                                 create_placeholder=False) is False

    assert server.hits[route] == 1
    assert files_under(assets) == set()
    # Failed moments ago: the next frame's call makes no request.
    assert download_missing_logo("nfl", "6", "DAL", path, server.url(route),
                                 create_placeholder=False) is False
    assert server.hits[route] == 1


def test_a_failed_download_leaves_a_stamped_placeholder(assets: Path, server: Server) -> None:
    path = assets / "sports" / "nfl_logos" / "DAL.png"

    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/missing.png")) is True

    assert logos.is_placeholder_logo(path)
    assert not logos.should_attempt_download(path)
    with Image.open(path) as image:
        assert image.size == (64, 64) and image.getpixel((0, 0)) == (100, 100, 100, 255)
    assert files_under(assets) == {path}


def test_an_old_placeholder_is_replaced_by_the_real_logo(assets: Path, server: Server) -> None:
    path = assets / "sports" / "nfl_logos" / "DAL.png"
    path.parent.mkdir(parents=True)
    info = PngInfo()
    old = time.time() - logo_placeholder.PLACEHOLDER_RETRY_SECONDS - 60
    info.add_text(logos.PLACEHOLDER_MARKER, str(old))
    Image.new("RGBA", (64, 64), (100, 100, 100, 255)).save(path, pnginfo=info)
    assert logos.should_attempt_download(path)

    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/logo.png")) is True

    assert not logos.is_placeholder_logo(path)
    with Image.open(path) as image:
        assert image.size == (40, 30)


def test_an_unstamped_grey_box_of_the_existing_system_counts_as_a_placeholder(
        tmp_path: Path) -> None:
    path = tmp_path / "OLD.png"
    Image.new("RGBA", (64, 64), (100, 100, 100, 255)).save(path)
    real = tmp_path / "REAL.png"
    Image.new("RGBA", (64, 64), (10, 200, 10, 255)).save(real)

    assert logos.is_placeholder_logo(path) and not logos.is_placeholder_logo(real)
    assert not logos.is_placeholder_logo(tmp_path / "none.png")


def test_a_server_that_never_answers_holds_each_call_at_most_the_budget(
        assets: Path, server: Server) -> None:
    folder = assets / "sports" / "nfl_logos"
    started = time.monotonic()

    for team in ("DAL", "NYG"):  # a board asks for both teams in one display()
        assert download_missing_logo("nfl", "6", team, folder / f"{team}.png",
                                     server.url("/slow.png"), create_placeholder=False) is False

    assert time.monotonic() - started < 2 * logos.DOWNLOAD_BUDGET + 1.0
    assert files_under(assets) == set()


def test_a_logo_that_lands_after_the_budget_replaces_the_placeholder(
        assets: Path, server: Server) -> None:
    path = assets / "sports" / "nfl_logos" / "DAL.png"
    started = time.monotonic()

    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/late.png")) is True

    assert time.monotonic() - started < logos.DOWNLOAD_BUDGET + 0.5
    assert logos.is_placeholder_logo(path)  # answered as failed, for now
    deadline = time.monotonic() + 10
    while logos.is_placeholder_logo(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert download_missing_logo("nfl", "6", "DAL", path, server.url("/late.png")) is True
    with Image.open(path) as image:
        assert image.size == (40, 30) and not logos.is_placeholder_logo(path)
    assert server.hits["/late.png"] == 1
    assert files_under(assets) == {path}


@pytest.mark.parametrize("route", ["/huge.png", "/huge-unsized.png"])
def test_a_body_over_the_limit_is_abandoned(server: Server, route: str) -> None:
    with pytest.raises(FetchError, match="allowed"):
        get_bytes(requests.Session(), server.url(route), timeout=5, max_bytes=logos.MAX_LOGO_BYTES)


def test_a_body_that_trickles_in_is_cut_off_at_the_deadline(server: Server) -> None:
    started = time.monotonic()
    with pytest.raises(FetchError, match="longer than the timeout") as caught:
        get_bytes(requests.Session(), server.url("/drip.png"), timeout=1.0, max_bytes=10**6)
    assert caught.value.retryable
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("name", ["../../../evil.png", "../evil.png", "a\0b.png", "X.json"])
def test_a_logo_path_leaving_the_logo_dir_is_refused(assets: Path, server: Server,
                                                     tmp_path: Path, name: str) -> None:
    logo_dir = assets / "sports" / "nfl_logos"
    logo_dir.mkdir(parents=True)
    before = files_under(tmp_path)

    assert download_missing_logo("nfl", "6", name.removesuffix(".png"), f"{logo_dir}/{name}",
                                 server.url("/logo.png")) is False
    assert LogoDownloader().download_logo(server.url("/logo.png"), f"{logo_dir}/{name}",
                                          "X") is False

    assert files_under(tmp_path) == before
    assert server.hits["/logo.png"] == 0


def test_a_logo_path_outside_the_assets_cache_and_plugins_dirs_is_refused(
        assets: Path, server: Server, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "DAL.png"

    assert download_missing_logo("nfl", "6", "DAL", outside, server.url("/logo.png")) is False

    assert not outside.parent.exists()
    assert server.hits["/logo.png"] == 0


def test_a_placeholder_for_a_hostile_abbreviation_stays_in_the_logo_dir(
        assets: Path, tmp_path: Path) -> None:
    logo_dir = assets / "sports" / "nfl_logos"

    assert LogoDownloader().create_placeholder_logo("../../X", logo_dir) is True

    assert files_under(tmp_path) == {logo_dir / ".._.._X.png"}
