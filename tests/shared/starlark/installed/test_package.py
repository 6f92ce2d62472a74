"""App packages: a .star or a ZIP, checked as the store checks archives."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from shared.starlark.installed import package
from shared.starlark.installed.package import PackageError, from_folder_files, from_star, from_zip

APPS = Path(__file__).resolve().parent.parent / "apps"
APP = (b'load("render.star", "render")\ndef main(config):\n'
       b"    return render.Root(child = render.Box())\n")


def _zip(files: dict[str, bytes], *, link: str | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
        if link is not None:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return out.getvalue()


def _folder(name: str) -> dict[str, bytes]:
    root = APPS / name
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_star_file_is_a_package_named_after_it() -> None:
    made = from_star(APP, "My Clock.star")
    assert (made.app_id, made.main, made.files) == ("my_clock", "my_clock.star",
                                                    {"my_clock.star": APP})
    assert from_star(APP, "x.star", app_id="clock").main == "clock.star"


@pytest.mark.parametrize(("data", "name", "problem"), [
    (APP, "clock.py", "not a .star file"),
    (b"\xff\xfe", "clock.star", "not UTF-8"),
    (b"def other():\n    pass\n", "clock.star", "no main()"),
    (APP, "clock.star", "cannot be an app id"),
])
def test_a_bad_star_file_is_refused_saying_why(data: bytes, name: str, problem: str) -> None:
    with pytest.raises(PackageError, match=problem):
        from_star(data, name, app_id="Bad Id" if problem.startswith("cannot") else None)


def test_a_repository_folder_zipped_with_its_top_folder_installs_as_published() -> None:
    files = _folder("battlemetrics")
    made = from_zip(_zip({f"battlemetrics/{k}": v for k, v in files.items()}))
    assert made.app_id == "battlemetrics" and made.main == "battlemetrics.star"
    assert made.files == files
    assert made.name == "BattleMetrics"


def test_the_main_file_is_the_manifests_then_the_ids_then_the_one_with_main() -> None:
    helper = b"def helper():\n    return 1\n"
    assert from_zip(_zip({"a.star": helper, "b.star": APP})).main == "b.star"
    assert from_zip(_zip({"a.star": APP, "b.star": APP}), app_id="b").main == "b.star"
    manifest = b"id: c\nfileName: c.star\n"
    made = from_zip(_zip({"a.star": APP, "c.star": APP, "manifest.yaml": manifest}))
    assert (made.app_id, made.main) == ("c", "c.star")


@pytest.mark.parametrize(("files", "problem"), [
    ({"../evil.star": APP}, "not an acceptable file name"),
    ({"/abs.star": APP}, "not an acceptable file name"),
    ({"a\\b.star": APP}, "not an acceptable file name"),
    ({".hidden/x.star": APP}, "not an acceptable file name"),
    ({"helper.star": b"x = 1\n"}, "no .star file defines main"),
    ({"sub/app.star": APP, "top.png": b""}, "no .star file defines main"),
])
def test_a_bad_archive_is_refused_saying_why(files: dict[str, bytes], problem: str) -> None:
    with pytest.raises(PackageError, match=problem):
        from_zip(_zip(files))


def test_links_garbage_and_empty_archives_are_refused() -> None:
    with pytest.raises(PackageError, match="not a plain file"):
        from_zip(_zip({"app.star": APP}, link="link.star"))
    with pytest.raises(PackageError, match="not a readable ZIP"):
        from_zip(b"PK\x03\x04 garbage", "x.zip")
    with pytest.raises(PackageError, match="empty"):
        from_zip(_zip({}))


def test_an_archive_is_bounded_by_what_it_inflates_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "MAX_FILE_BYTES", 1000)
    with pytest.raises(PackageError, match="larger than"):
        from_zip(_zip({"app.star": APP, "big.png": b"\0" * 5000}))
    monkeypatch.setattr(package, "MAX_FILE_BYTES", 10_000)
    monkeypatch.setattr(package, "MAX_TOTAL_BYTES", 8000)
    with pytest.raises(PackageError, match="inflates to more than"):
        from_zip(_zip({"app.star": APP, "a.png": b"\0" * 4000, "b.png": b"\0" * 4000}))
    monkeypatch.setattr(package, "MAX_FILES", 3)
    with pytest.raises(PackageError, match="more than 3 files"):
        from_zip(_zip({f"{i}.png": b"" for i in range(4)}))


def test_every_sample_app_packages_with_its_own_main_file() -> None:
    for folder in sorted(p for p in APPS.iterdir() if p.is_dir()):
        made = from_folder_files(_folder(folder.name), app_id=folder.name)
        assert made.main == f"{folder.name}.star", folder.name


def test_files_from_the_repository_are_checked_alike() -> None:
    made = from_folder_files(_folder("washer"))
    assert (made.app_id, made.main) == ("washer", "washer.star")
    with pytest.raises(PackageError, match="not an acceptable file name"):
        from_folder_files({"../x.star": APP})
