"""Fonts over the API: catalog, preview PNG, upload (checked by loading) and delete.

``font_files/4x6.pcf`` is the shipped ``assets/fonts/4x6.bdf`` compiled by ``bdftopcf``
(Debian ``xfonts-utils``), so the PCF path is tested on a real PCF file.
"""

from __future__ import annotations

import io
import json
import os
import struct
import textwrap
import time
from pathlib import Path

import pytest
import requests
from PIL import Image

from shared.bus import core as keys
from shared.fonts import SHIPPED_FONTS_DIR
from shared.fonts.preview import MAX_HEIGHT, MAX_WIDTH
from shared.fonts.uploads import MAX_FONT_BYTES
from tests.daemons import ROOT, Instance, start_display, start_web

PCF = Path(__file__).parents[1] / "font_files" / "4x6.pcf"
BDF = (SHIPPED_FONTS_DIR / "5x7.bdf").read_bytes()
TTF = (SHIPPED_FONTS_DIR / "PressStart2P-Regular.ttf").read_bytes()


def upload(web, name, data, family="blocky"):
    fields = {"font_file": (io.BytesIO(data), name)}
    if family is not None:
        fields["font_family"] = family
    return web.client.post("/api/v3/fonts/upload", data=fields, content_type="multipart/form-data")


def refused(answer, status, code):
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == code, body
    assert "Traceback" not in body["message"]
    return body


def catalog(web):
    answer = web.client.get("/api/v3/fonts/catalog")
    assert answer.status_code == 200
    return {f["family"]: f for f in answer.get_json()["data"]["fonts"]}


def upload_dir(web) -> Path:
    return web.paths.fonts_upload_dir


def stored(web) -> list[str]:
    directory = upload_dir(web)
    return sorted(os.listdir(directory)) if directory.exists() else []


def test_catalog_lists_the_shipped_fonts_with_kind_and_sizes(web):
    fonts = catalog(web)
    assert fonts["5x7"] == {"family": "5x7", "file": "5x7.bdf", "kind": "bdf", "sizes": [7],
                            "native_size": 7, "scalable": False, "builtin": True}
    ttf = fonts["press-start-2p"]
    assert ttf["kind"] == "ttf" and ttf["scalable"] and ttf["builtin"]
    assert ttf["native_size"] is None and 8 in ttf["sizes"] and len(ttf["sizes"]) > 2
    assert all(f["builtin"] for f in fonts.values())


@pytest.mark.parametrize(("name", "data", "kind", "sizes"), [
    ("mine.bdf", BDF, "bdf", [7]),
    ("mine.pcf", PCF.read_bytes(), "pcf", [6]),
    ("Mine.TTF", TTF, "ttf", [8, 10, 12, 16, 24, 32]),
    ("mine.otf", TTF, "otf", [8, 10, 12, 16, 24, 32]),
])
def test_an_uploaded_font_is_stored_listed_and_announced(web, name, data, kind, sizes):
    answer = upload(web, name, data, family="Blocky")
    assert answer.status_code == 200, answer.get_json()
    font = answer.get_json()["data"]["font"]
    assert font == {"family": "blocky", "file": f"blocky.{kind}", "kind": kind, "sizes": sizes,
                    "native_size": sizes[0] if len(sizes) == 1 else None,
                    "scalable": len(sizes) > 1, "builtin": False}
    assert (upload_dir(web) / f"blocky.{kind}").read_bytes() == data
    assert stored(web) == [f"blocky.{kind}"]  # no temp file left behind
    assert catalog(web)["blocky"] == font
    told = web.bus.read(keys.FONTS_CHANGED)
    assert told["change"] == "added" and told["family"] == "blocky"
    assert answer.get_json()["data"]["display_told"] is True


def _pcf_with_a_huge_glyph() -> bytes:
    """Return the PCF with its metrics rewritten uncompressed, the first glyph 30000 px wide."""
    data = bytearray(PCF.read_bytes())
    (count,) = struct.unpack_from("<i", data, 4)
    for index in range(count):
        entry = 8 + 16 * index
        kind, _fmt, _size, offset = struct.unpack_from("<iiii", data, entry)
        if kind != 1 << 2:  # the metrics table
            continue
        (fmt,) = struct.unpack_from("<i", data, offset)
        order = ">" if fmt & 4 else "<"
        (glyphs,) = struct.unpack_from(order + "H", data, offset + 4)
        metrics = [[b - 0x80 for b in struct.unpack_from("5B", data, offset + 6 + 5 * i)]
                   for i in range(glyphs)]
        metrics[0][1] = 30000  # right bearing
        table = struct.pack("<ii", 0, glyphs) + b"".join(
            struct.pack("<5hH", *m, 0) for m in metrics)
        struct.pack_into("<iiii", data, entry, kind, 0, len(table), len(data))
        return bytes(data) + table
    raise AssertionError("no metrics table")


@pytest.mark.parametrize(("name", "data", "says"), [
    ("fake.ttf", b"this is not a font at all\n" * 40, "does not start like a TrueType"),
    ("fake.otf", b"\x00\x01\x00\x00" + b"\x00" * 400, "FreeType cannot load it"),
    ("half.bdf", BDF[: len(BDF) // 2], "Pillow cannot read it as BDF"),
    ("head.bdf", BDF[:300], "it holds no glyphs"),
    # Pillow reads glyphs up to a cut after a whole glyph; FreeType, as the display uses
    # it, wants the end of the font.
    ("cut.bdf", BDF[:BDF.index(b"ENDCHAR\n", len(BDF) // 2) + 8], "FreeType loads it at no"),
    ("bdf-named.ttf", BDF, "does not start like a TrueType"),
    ("ttf-named.pcf", TTF, "does not start like a PCF"),
    ("short.pcf", PCF.read_bytes()[:200], "ends inside its tables"),
    ("huge.pcf", _pcf_with_a_huge_glyph(), "glyph box"),
    ("huge.bdf", BDF.replace(b"FONTBOUNDINGBOX 5 7", b"FONTBOUNDINGBOX 5000 7000"), "glyph box"),
])
def test_a_file_that_does_not_load_as_its_kind_is_refused(web, name, data, says):
    body = refused(upload(web, name, data), 400, "INVALID_FONT")
    assert says in body["message"] and name in body["message"]
    assert body["details"]["field"] == "font_file"
    assert stored(web) == []
    assert web.bus.read(keys.FONTS_CHANGED) is None


@pytest.mark.parametrize("family", [None, "", "../evil", "a/b", "a b", "-", "_-_", "x" * 65,
                                    "caf\u00e9", "a\x00b", ".hidden"])
def test_the_family_must_be_one_plain_name(web, family):
    body = refused(upload(web, "x.bdf", BDF, family=family), 400, "INVALID_FONT_FAMILY")
    assert body["details"]["field"] == "font_family"
    assert stored(web) == []


@pytest.mark.parametrize("family", ["5x7", "Press_Start", "arcade", "spleen", "FIXED",
                                    "spleen-8x16", "PressStart2P-Regular"])
def test_a_built_in_font_name_cannot_be_taken(web, family):
    body = refused(upload(web, "x.bdf", BDF, family=family), 409, "FONT_FAMILY_TAKEN")
    assert body["details"]["builtin"] is True
    assert stored(web) == []


def test_an_uploaded_family_is_not_replaced_by_a_second_upload(web):
    assert upload(web, "a.bdf", BDF, family="my-font").status_code == 200
    for family in ("my-font", "My_Font", "MYFONT"):
        body = refused(upload(web, "b.ttf", TTF, family=family), 409, "FONT_FAMILY_TAKEN")
        assert body["details"]["builtin"] is False
    assert stored(web) == ["my-font.bdf"]
    assert (upload_dir(web) / "my-font.bdf").read_bytes() == BDF


def test_upload_needs_a_font_file_of_a_font_type_within_the_size_limit(web):
    none = web.client.post("/api/v3/fonts/upload", data={"font_family": "x"},
                           content_type="multipart/form-data")
    refused(none, 400, "NO_FILES")
    refused(upload(web, "font.woff", TTF), 400, "UNSUPPORTED_FONT_TYPE")
    refused(upload(web, "noextension", TTF), 400, "UNSUPPORTED_FONT_TYPE")
    big = b"STARTFONT 2.1\n" + b"COMMENT padding\n" * (MAX_FONT_BYTES // 16 + 1)
    refused(upload(web, "big.bdf", big), 413, "FILE_TOO_LARGE")
    too_big_body = upload(web, "bigger.bdf", big + b"x" * (2 * 1024 * 1024))
    refused(too_big_body, 413, "PAYLOAD_TOO_LARGE")
    assert stored(web) == []


def test_upload_into_a_fonts_folder_that_is_a_symlink_writes_nothing(web, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    upload_dir(web).parent.mkdir(parents=True, exist_ok=True)
    upload_dir(web).symlink_to(elsewhere)
    body = refused(upload(web, "a.bdf", BDF), 500, "WRITE_FAILED")
    assert "not a real directory" in body["message"]
    assert list(elsewhere.iterdir()) == []


def _png(answer) -> Image.Image:
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert answer.headers["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(answer.data)).convert("RGB")


def test_preview_draws_white_text_on_black(web):
    image = _png(web.client.get("/api/v3/fonts/preview?font=5x7&text=Hello"))
    colours = {colour for _count, colour in image.getcolors(image.width * image.height)}
    assert colours == {(0, 0, 0), (255, 255, 255)}  # a bitmap font: no grey
    assert image.getpixel((0, 0)) == (0, 0, 0)
    assert image.height == 7 + 4 and 5 * 5 <= image.width <= 5 * 5 + 4


def test_preview_size_scales_a_ttf_and_a_bitmap_font_keeps_its_own(web):
    small = _png(web.client.get("/api/v3/fonts/preview?font=press-start-2p&size=8&text=AB"))
    large = _png(web.client.get("/api/v3/fonts/preview?font=Press_Start&size=32&text=AB"))
    assert (small.height, large.height) == (8 + 4, 32 + 4)  # 2 px of border around
    assert large.width - 4 == 4 * (small.width - 4)
    answer = web.client.get("/api/v3/fonts/preview?font=spleen-8x16&size=40")
    assert answer.headers["X-Font-Size"] == "16" and _png(answer).height == 16 + 4


def test_preview_is_bounded_in_size(web):
    image = _png(web.client.get("/api/v3/fonts/preview?font=press-start-2p&size=128&text="
                                + "W" * 100))
    assert image.width == MAX_WIDTH and image.height <= MAX_HEIGHT


def test_preview_of_an_uploaded_font(web):
    assert upload(web, "a.pcf", PCF.read_bytes(), family="tiny").status_code == 200
    answer = web.client.get("/api/v3/fonts/preview?font=tiny&text=abc")
    assert answer.headers["X-Font-Size"] == "6" and _png(answer).height == 6 + 4


@pytest.mark.parametrize(("query", "status", "code"), [
    ("font=nosuchfont", 404, "FONT_NOT_FOUND"),
    ("", 400, "INVALID_FONT_FAMILY"),
    ("font=../../../etc/passwd", 400, "INVALID_FONT_FAMILY"),
    ("font=%2e%2e", 400, "INVALID_FONT_FAMILY"),
    ("font=..%2f5x7.bdf", 400, "INVALID_FONT_FAMILY"),
    ("font=%2Fetc%2Fpasswd", 400, "INVALID_FONT_FAMILY"),
    ("font=5x7%00", 400, "INVALID_FONT_FAMILY"),
    ("font=5x7&size=0", 400, "INVALID_FIELD"),
    ("font=5x7&size=129", 400, "INVALID_FIELD"),
    ("font=5x7&size=12px", 400, "INVALID_FIELD"),
    ("font=5x7&size=99999999999999999999", 400, "INVALID_FIELD"),
    ("font=5x7&text=" + "x" * 101, 400, "INVALID_FIELD"),
    ("font=5x7&text=a%0Ab", 400, "INVALID_FIELD"),
])
def test_preview_refuses_bad_queries_with_one_envelope(web, query, status, code):
    refused(web.client.get(f"/api/v3/fonts/preview?{query}"), status, code)


def test_delete_removes_an_uploaded_font_and_tells_the_display(web):
    assert upload(web, "a.ttf", TTF, family="blocky").status_code == 200
    answer = web.client.delete("/api/v3/fonts/blocky")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"family": "blocky", "file": "blocky.ttf",
                                         "display_told": True}
    assert stored(web) == [] and "blocky" not in catalog(web)
    told = web.bus.read(keys.FONTS_CHANGED)
    assert told["change"] == "deleted" and told["family"] == "blocky"
    refused(web.client.delete("/api/v3/fonts/blocky"), 404, "FONT_NOT_FOUND")


@pytest.mark.parametrize("family", ["5x7", "press-start-2p", "Press_Start", "arcade"])
def test_a_built_in_font_cannot_be_deleted(web, family):
    refused(web.client.delete(f"/api/v3/fonts/{family}"), 403, "BUILTIN_FONT")
    assert (SHIPPED_FONTS_DIR / "5x7.bdf").exists()


@pytest.mark.parametrize("path", ["..", "%2e%2e", "..%2F..%2Fconfig", "%2Fetc%2Fpasswd",
                                  "a%00b", ".blocky", "blocky%5C..", "x" * 101])
def test_delete_refuses_path_tricks_and_removes_nothing(web, tmp_path, path):
    assert upload(web, "a.ttf", TTF, family="blocky").status_code == 200
    sentinel = tmp_path / "config" / "config.json"
    answer = web.client.delete(f"/api/v3/fonts/{path}")
    assert answer.status_code in (400, 404, 405), answer.get_data(as_text=True)[:300]
    assert answer.get_json()["status"] == "error"
    assert stored(web) == ["blocky.ttf"] and sentinel.exists()


def test_a_symlink_out_of_the_fonts_folder_is_neither_listed_nor_previewed_nor_followed(
        web, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.ttf"
    victim.write_bytes(TTF)
    upload_dir(web).mkdir(parents=True)
    (upload_dir(web) / "sneaky.ttf").symlink_to(victim)
    assert "sneaky" not in catalog(web)
    refused(web.client.get("/api/v3/fonts/preview?font=sneaky"), 404, "FONT_NOT_FOUND")
    refused(web.client.delete("/api/v3/fonts/sneaky"), 404, "FONT_NOT_FOUND")
    assert victim.read_bytes() == TTF and (upload_dir(web) / "sneaky.ttf").is_symlink()


# -- the display daemon sees uploaded fonts -------------------------------------------

PROBE = textwrap.dedent('''
    import json
    from pathlib import Path

    from shared.plugin_api.base_plugin import BasePlugin


    class Probe(BasePlugin):
        def update(self):
            fonts = self.plugin_manager.font_manager
            info = fonts.lookup("blocky")
            report = {"blocky": info.path.name if info else None,
                      "native": fonts.get_native_bdf_size("blocky") if info else None,
                      "at": __import__("time").time()}
            target = Path(__file__).with_name("report.json")
            target.with_suffix(".tmp").write_text(json.dumps(report))
            target.with_suffix(".tmp").replace(target)

        def display(self, force_clear=False):
            self.display_manager.update_display()
            return True
''')


def _probe_instance(tmp_path: Path) -> Instance:
    instance = Instance(tmp_path)
    directory = instance.plugins_dir / "probe"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": "probe", "name": "Probe", "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Probe", "display_modes": ["probe"],
        "compatible_versions": [">=3.0.0"], "update_interval": 1}))
    (directory / "manager.py").write_text(PROBE)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["probe"] = {"enabled": True}
    instance.write_config(config)
    return instance


def _report_after(report: Path, since: float, predicate) -> dict:
    deadline = time.monotonic() + 20
    seen: dict = {}
    while time.monotonic() < deadline:
        try:
            seen = json.loads(report.read_text())
        except (OSError, ValueError):
            seen = {}
        if seen.get("at", 0) > since and predicate(seen):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"the display's font manager never showed it: {seen}")


def test_the_running_display_uses_an_uploaded_font_and_forgets_a_deleted_one(
        tmp_path, monkeypatch):
    instance = _probe_instance(tmp_path)
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    report = instance.plugins_dir / "probe" / "report.json"
    display = start_display(instance)
    web = None
    try:
        web, url = start_web(instance)
        _report_after(report, 0, lambda r: r["blocky"] is None)
        answer = requests.post(f"{url}/api/v3/fonts/upload", data={"font_family": "blocky"},
                               files={"font_file": ("tiny.pcf", PCF.read_bytes())}, timeout=10)
        assert answer.status_code == 200, answer.text
        assert (tmp_path / "assets" / "fonts_uploaded" / "blocky.pcf").exists()
        seen = _report_after(report, time.time(), lambda r: r["blocky"] is not None)
        assert seen == {**seen, "blocky": "blocky.pcf", "native": 6}
        answer = requests.delete(f"{url}/api/v3/fonts/blocky", timeout=10)
        assert answer.status_code == 200, answer.text
        _report_after(report, time.time(), lambda r: r["blocky"] is None)
    finally:
        if web is not None:
            web.stop()
        assert display.stop() == 0, display.output()
    assert "fonts: rescanned" in display.output()
