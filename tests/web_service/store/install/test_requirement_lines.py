"""A plugin's requirements.txt may only name packages: options, URLs and file paths are
refused before pip runs, naming the line, and no other file's content reaches a message."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_service.store.errors import StoreError
from web_service.store.install.requirement_lines import logical_lines, read_requirements
from web_service.store.install.requirements import install_requirements

REFUSED = [
    "--index-url https://evil.example/simple", "-i https://evil.example/simple",
    "--extra-index-url=https://evil.example/simple", "--find-links /tmp/wheels",
    "-f /tmp/wheels", "-f/tmp/wheels", "--no-index", "-e .", "--editable ./src",
    "-e git+https://example.com/x.git#egg=x", "--trusted-host evil.example",
    "--pre", "--prefer-binary", "-Z", "--requirement other.txt", "-c constraints.txt",
    "pkg @ https://evil.example/pkg-1.0.tar.gz", "pkg@file:///etc/passwd",
    "https://evil.example/pkg-1.0-py3-none-any.whl", "git+https://example.com/x.git",
    "git+ssh://git@example.com/x.git", "file:../x", "./x.whl", "x-1.0-py3-none-any.whl",
    "/abs/pkg", "../pkg", "~/pkg", "sub/dir", "pkg.tar.gz", "requests >= 2 --hash=sha256:00",
    "requests ===", "not a requirement",
]


@pytest.fixture
def pip_spy(tmp_path: Path) -> Path:
    """A "python" that records that it ran (pip must not)."""
    spy = tmp_path / "spy-python"
    spy.write_text(f"#!/bin/sh\necho ran > {tmp_path / 'ran'}\n")
    spy.chmod(0o755)
    return spy


def _plugin(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "plugin"
    folder.mkdir(exist_ok=True)
    (folder / "requirements.txt").write_text(text)
    return folder / "requirements.txt"


@pytest.mark.parametrize("line", REFUSED)
def test_lines_that_are_not_plain_requirements_are_refused_before_pip(
        tmp_path: Path, pip_spy: Path, line: str) -> None:
    file = _plugin(tmp_path, f"# weather data\nrequests>=2\n\n{line}\n")
    with pytest.raises(StoreError) as caught:
        install_requirements("clock", file, python=str(pip_spy), timeout=30)
    assert caught.value.error_code == "UNSAFE_REQUIREMENTS"
    assert caught.value.message.startswith("clock: requirements.txt line 4: ")
    assert not (tmp_path / "ran").exists(), "pip never ran"
    assert not (file.parent / ".ledpanel-deps").exists()


@pytest.mark.parametrize("line", ["-r {secret}", "-r{secret}", "--requirement={secret}",
                                  "-c {secret}", "--constraint {secret}",
                                  "requests\\\n-r {secret}", "-r ../../{name}"])
def test_an_included_file_is_never_read_nor_shown(tmp_path: Path, pip_spy: Path,
                                                  line: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-FIRST-LINE:0:0\nsecond-line\n")
    file = _plugin(tmp_path, line.format(secret=secret, name=secret.name) + "\n")
    with pytest.raises(StoreError) as caught:
        install_requirements("clock", file, python=str(pip_spy), timeout=30)
    assert caught.value.error_code == "UNSAFE_REQUIREMENTS"
    assert "SECRET" not in caught.value.message and "second-line" not in caught.value.message
    assert caught.value.message.startswith("clock: requirements.txt line 1: ")
    assert not (tmp_path / "ran").exists()


def test_plain_requirements_pass_with_comments_markers_and_continuations(
        tmp_path: Path) -> None:
    file = _plugin(tmp_path, "\ufeff# a comment\nrequests >= 2.28  # inline comment\n"
                   "pytz\\\n>=2023.3\n\nfoo[bar,baz] ~= 1.2 ; python_version >= '3.8'\n"
                   "Pillow!=1.0,>=9\n")
    found = read_requirements("clock", file)
    assert [(line.number, str(line.requirement)) for line in found] == [
        (2, "requests>=2.28"), (3, "pytz>=2023.3"),
        (6, 'foo[bar,baz]~=1.2; python_version >= "3.8"'), (7, "Pillow!=1.0,>=9")]


def test_logical_lines_number_each_requirement_by_its_first_line() -> None:
    assert logical_lines("a\\\n\\\nb\n#x\n  c # y\nd\\") == [(1, "ab"), (5, "c"), (6, "d")]


@pytest.mark.parametrize(("data", "why"), [
    (b"requests\n" * 8000, "larger than 64 KiB"),
    (b"\xff\xfe\x00requests", "not UTF-8 text"),
    ("".join(f"pkg{n}\n" for n in range(201)).encode(), "more than 200 requirements"),
])
def test_a_file_too_big_or_not_text_is_refused(tmp_path: Path, data: bytes, why: str) -> None:
    file = tmp_path / "requirements.txt"
    file.write_bytes(data)
    with pytest.raises(StoreError) as caught:
        read_requirements("clock", file)
    assert caught.value.error_code == "UNSAFE_REQUIREMENTS" and why in caught.value.message


def test_a_conflict_with_a_core_pin_is_refused_before_pip(tmp_path: Path,
                                                          pip_spy: Path) -> None:
    file = _plugin(tmp_path, "requests>=2\nflask<1\n")
    with pytest.raises(StoreError) as caught:
        install_requirements("clock", file, python=str(pip_spy), timeout=30)
    assert caught.value.error_code == "DEPENDENCIES_FAILED"
    assert "line 2: flask<1 conflicts with the core's Flask==" in caught.value.message
    assert not (tmp_path / "ran").exists()


def test_requirements_the_core_environment_satisfies_need_no_pip(tmp_path: Path,
                                                                pip_spy: Path) -> None:
    file = _plugin(tmp_path, "requests>=2\nPillow\nnot-here ; python_version < '3'\n")
    install_requirements("clock", file, python=str(pip_spy), timeout=30)
    assert not (tmp_path / "ran").exists()
    assert not (file.parent / ".ledpanel-deps").exists()
