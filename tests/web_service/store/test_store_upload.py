"""Installing a plugin from an uploaded ZIP: real ZIP files through the real route, checked
as store archives are, installed by a store job; bad ZIPs answer 400 and leave nothing."""

from __future__ import annotations

import io
import json
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.sample_plugins import plugin_files
from web_service.api import store_ops
from web_service.store.install import upload as upload_module
from web_service.store.install.archive import MAX_FILE_BYTES
from web_service.store.jobs import store_dir

UPLOAD = "/api/v3/plugins/install/upload"


def zipped(members: dict[str, bytes | str], *, links: dict[str, str] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return out.getvalue()


def folder_zip(plugin_id: str, top: str | None = None, **kwargs: Any) -> bytes:
    prefix = f"{top or plugin_id}/" if top != "" else ""
    return zipped({prefix + name: data for name, data in plugin_files(plugin_id, **kwargs)
                   .items()})


def post(web: RegistryWeb, data: bytes, filename: str = "plugin.zip",
         wait: float = 30) -> Any:
    return web.client.post(UPLOAD, data={"plugin_zip": (io.BytesIO(data), filename),
                                         "wait": str(wait)},
                           content_type="multipart/form-data")


def uploads_left(web: RegistryWeb) -> list[Path]:
    folder = store_dir(web.paths.cache_dir) / "uploads"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize("top", ["weather-now", "", "weather-now-main"],
                         ids=["in-its-folder", "files-at-top", "folder-named-otherwise"])
def test_an_uploaded_zip_is_installed_by_a_store_job(registry_web: RegistryWeb,
                                                      top: str) -> None:
    answer = post(registry_web, folder_zip("weather-now", top=top), "weather-now.zip")
    body = answer.get_json()
    assert answer.status_code == 200, body
    assert body["data"]["plugin_id"] == "weather-now" and body["data"]["version"] == "1.0.0"
    assert body["data"]["job"]["description"] == "install from the uploaded weather-now.zip"
    installed = registry_web.paths.plugins_dir() / "weather-now"
    assert json.loads((installed / "manifest.json").read_text())["id"] == "weather-now"
    record = json.loads((installed / ".ledpanel-store.json").read_text())
    assert record["source"] == "upload" and record["upload"] == "weather-now.zip"
    assert record["repo"] is None
    listed = registry_web.client.get("/api/v3/plugins/installed").get_json()["data"]
    assert "weather-now" in [plugin["id"] for plugin in listed]
    assert uploads_left(registry_web) == []


def test_a_macos_zip_with_its_extra_folder_is_installed(registry_web: RegistryWeb) -> None:
    members = {f"clock-simple/{n}": d for n, d in plugin_files("clock-simple").items()}
    members["__MACOSX/clock-simple/._manifest.json"] = b"\x00\x05\x16\x07"
    answer = post(registry_web, zipped(members), "clock-simple.zip")
    assert answer.status_code == 200, answer.get_json()
    installed = registry_web.paths.plugins_dir() / "clock-simple"
    assert not (installed / "__MACOSX").exists()


GOOD = plugin_files("sneaky")
BAD_ZIPS = {
    "not-a-zip": (b"PK\x03\x04 this is not really a zip", "NOT_A_ZIP", "not a ZIP"),
    "text": (b"hello", "NOT_A_ZIP", "not a ZIP"),
    "zip-slip": (zipped({**{f"sneaky/{n}": d for n, d in GOOD.items()},
                         "sneaky/../../evil.py": "x"}), "UNSAFE_ARCHIVE", "unsafe path"),
    "absolute": (zipped({**GOOD, "/etc/evil": "x"}), "UNSAFE_ARCHIVE", "unsafe path"),
    "backslash": (zipped({**GOOD, "..\\evil.py": "x"}), "UNSAFE_ARCHIVE", "unsafe path"),
    "symlink": (zipped(GOOD, links={"secrets": "/etc/shadow"}), "UNSAFE_ARCHIVE",
                "symbolic links are not accepted"),
    "no-manifest": (zipped({"sneaky/manager.py": GOOD["manager.py"]}), "BAD_PLUGIN",
                    "no manifest.json"),
    "two-tops": (zipped({**{f"a/{n}": d for n, d in GOOD.items()}, "b/x.py": "x"}),
                 "BAD_PLUGIN", "no manifest.json"),
    "too-large": (zipped({**GOOD, "big.bin": b"\0" * (MAX_FILE_BYTES + 1)}), "TOO_LARGE",
                  "more than"),
    "empty": (zipped({}), "BAD_PLUGIN", "no manifest.json"),
}


@pytest.mark.parametrize("case", sorted(BAD_ZIPS))
def test_a_bad_zip_answers_400_with_its_code_and_leaves_nothing(registry_web: RegistryWeb,
                                                                case: str) -> None:
    data, code, words = BAD_ZIPS[case]
    answer = post(registry_web, data, f"{case}.zip")
    body = answer.get_json()
    assert answer.status_code == 400, body
    assert body["status"] == "error" and body["error_code"] == code
    assert body["message"].startswith(f"{case}.zip: ") and words in body["message"]
    assert not (registry_web.paths.plugins_dir() / "sneaky").exists()
    assert not Path("/tmp/evil.py").exists()
    assert uploads_left(registry_web) == []
    jobs = registry_web.client.get("/api/v3/plugins/store/jobs").get_json()["data"]["jobs"]
    assert jobs == []  # refused before any job


def test_a_zip_over_the_upload_cap_is_refused(registry_web: RegistryWeb,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    data = folder_zip("weather-now")
    monkeypatch.setattr(upload_module, "MAX_UPLOAD_BYTES", len(data) - 1)
    answer = post(registry_web, data)
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == "TOO_LARGE"
    assert uploads_left(registry_web) == []
    monkeypatch.setattr(store_ops, "MAX_UPLOAD_BYTES", 1024)  # the request cap itself
    answer = post(registry_web, data + b"\0" * 70_000)
    assert answer.status_code == 413
    assert answer.get_json()["error_code"] == "PAYLOAD_TOO_LARGE"


def test_no_file_or_a_bad_wait_is_a_400_naming_the_field(registry_web: RegistryWeb) -> None:
    answer = registry_web.client.post(UPLOAD, data={"wait": "1"},
                                      content_type="multipart/form-data")
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == "NO_FILES"
    assert answer.get_json()["details"] == {"field": "plugin_zip"}
    answer = post(registry_web, folder_zip("weather-now"), wait=1e9)
    assert answer.status_code == 400
    assert answer.get_json()["details"]["field"] == "wait"
    assert uploads_left(registry_web) == []


def test_a_plugin_the_checks_refuse_fails_its_job_and_keeps_the_installed_one(
        registry_web: RegistryWeb) -> None:
    """A readable ZIP whose manifest is broken passes the archive checks; the install
    job then refuses it (BAD_PLUGIN) and the installed plugin stays as it was."""
    installed = registry_web.paths.plugins_dir() / "clock"
    before = (installed / "manifest.json").read_bytes()
    answer = post(registry_web, zipped({"clock/manifest.json": "{not json",
                                        "clock/manager.py": "x = 1\n"}), "clock.zip")
    body = answer.get_json()
    assert answer.status_code == 422, body
    assert body["error_code"] == "BAD_PLUGIN"
    assert (installed / "manifest.json").read_bytes() == before
    assert uploads_left(registry_web) == []
