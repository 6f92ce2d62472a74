"""Malicious ZIP archives are refused whole: nothing outside staging, nothing left behind."""

from __future__ import annotations

import io
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.web_service.store.install_support import (
    MONO,
    OWNER,
    leftovers,
    mono_source,
    push_mono,
    tree_hash,
)
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.errors import StoreError
from web_service.store.install.archive import MAX_FILE_BYTES, MAX_FILES
from web_service.store.install.folders import install_plugin

TOP = f"{MONO}-main/"
BASE = f"{TOP}plugins/clock/"


@pytest.fixture
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        push_mono(running, "clock")
        running.rate_limited = True  # every download takes the ZIP way
        yield running


def _zip(extra: Callable[[zipfile.ZipFile], None]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(TOP, b"")
        for name, data in plugin_files("clock", version="6.6.6").items():
            archive.writestr(BASE + name, data)
        extra(archive)
    return out.getvalue()


def _member(name: str, data: bytes = b"owned") -> Callable[[zipfile.ZipFile], None]:
    return lambda archive: archive.writestr(name, data)


def _symlink(archive: zipfile.ZipFile) -> None:
    info = zipfile.ZipInfo(BASE + "passwd")
    info.external_attr = 0o120777 << 16
    archive.writestr(info, "/etc/passwd")


def _device(archive: zipfile.ZipFile) -> None:
    info = zipfile.ZipInfo(BASE + "tty")
    info.external_attr = 0o020666 << 16
    archive.writestr(info, b"")


def _declared_bomb(archive: zipfile.ZipFile) -> None:
    archive.writestr(BASE + "bomb.bin", bytes(MAX_FILE_BYTES + 1))


def _lying_bomb(archive: zipfile.ZipFile) -> None:
    archive.writestr(BASE + "bomb.bin", bytes(MAX_FILE_BYTES + 1))
    archive.filelist[-1].file_size = 1000  # the central directory lies about it


def _duplicate(archive: zipfile.ZipFile) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile: "Duplicate name"
        archive.writestr(BASE + "manager.py", b"class Other:\n    pass\n")


def _many_files(archive: zipfile.ZipFile) -> None:
    for index in range(MAX_FILES + 1):
        archive.writestr(f"{BASE}many/{index}.txt", b"x")


CASES = {
    "parent": (_member(f"{BASE}../../../../escaped.txt"), "UNSAFE_ARCHIVE"),
    "parent_elsewhere": (_member(f"{TOP}../escaped.txt"), "UNSAFE_ARCHIVE"),
    "absolute": (_member("/tmp/escaped-ledpanel.txt"), "UNSAFE_ARCHIVE"),
    "backslash": (_member(BASE + "..\\..\\escaped.txt"), "UNSAFE_ARCHIVE"),
    "symlink": (_symlink, "UNSAFE_ARCHIVE"),
    "device": (_device, "UNSAFE_ARCHIVE"),
    "declared_bomb": (_declared_bomb, "TOO_LARGE"),
    "lying_bomb": (_lying_bomb, None),
    "many_files": (_many_files, "TOO_LARGE"),
    "duplicate": (_duplicate, "UNSAFE_ARCHIVE"),
    "file_and_folder": (_member(BASE + "manager.py/inner.py"), "UNSAFE_ARCHIVE"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malicious_archive_is_refused_and_leaves_nothing(host: RepoHost, tmp_path: Path,
                                                         case: str) -> None:
    plugins_dir = tmp_path / "deep" / "er" / "plugin-repos"
    install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    before = tree_hash(tmp_path)
    extra, code = CASES[case]
    host.zip_override[(OWNER, MONO, "main")] = _zip(extra)
    with pytest.raises(StoreError) as caught:
        install_plugin(mono_source(host, "clock"), plugins_dir, api_url=host.api_url)
    if code is None:  # a lying size: caught by the size count or the checksum
        assert caught.value.error_code in ("TOO_LARGE", "UNSAFE_ARCHIVE")
    else:
        assert caught.value.error_code == code
    assert tree_hash(tmp_path) == before, "the previous install and its parents unchanged"
    assert leftovers(plugins_dir) == []
    assert not Path("/tmp/escaped-ledpanel.txt").exists()
    assert host.asked(".zip") == 2


def test_honest_archive_installs(host: RepoHost, tmp_path: Path) -> None:
    host.zip_override[(OWNER, MONO, "main")] = _zip(lambda archive: None)
    result = install_plugin(mono_source(host, "clock"), tmp_path, api_url=host.api_url)
    assert result.version == "6.6.6"
    assert result.record["tree_sha"] is None and result.record["commit"] is None
