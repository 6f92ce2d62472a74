"""The preview server's API, against the real server and worker processes."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from PIL import Image

from tests.preview_service.server import PreviewServer, write_plugin

GOOD = """
def update(self):
    self.shade = 50 + int(self.config.get("level", 100))

def display(self, force_clear=False, display_mode=None):
    dm = self.display_manager
    if force_clear:
        self.step = 0
    self.step += 1
    red = 255 if display_mode == "good-b" else self.shade
    dm.image.paste((red, 0, 0), (0, 0, min(self.step, dm.width), dm.height))
    dm.update_display()
"""
SCHEMA = {"type": "object", "properties": {"level": {"type": "integer", "default": 100}}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PreviewServer]:
    plugins = tmp_path_factory.mktemp("plugins")
    write_plugin(plugins, "good", GOOD, SCHEMA, modes=["good-a", "good-b"])
    write_plugin(plugins, "raiser", "def display(self, force_clear=False):\n"
                 "    raise ValueError('secret-display-text')\n")
    write_plugin(plugins, "hanger", "def display(self, force_clear=False):\n"
                 "    threading.Event().wait()\n")
    write_plugin(plugins, "exiter", "def display(self, force_clear=False):\n    os._exit(3)\n")
    write_plugin(plugins, "sysexit", "def display(self, force_clear=False):\n"
                 "    raise SystemExit(4)\n")
    write_plugin(plugins, "badupdate", "def update(self):\n"
                 "    raise KeyError('secret-update-text')\n"
                 "def display(self, force_clear=False):\n"
                 "    self.display_manager.update_display()\n")
    write_plugin(plugins, "chatty", "def update(self):\n    print('{\"results\": []}')\n"
                 "    os.write(1, b'raw bytes on fd 1\\n')\n"
                 "def display(self, force_clear=False):\n    print('drawing')\n"
                 "    self.display_manager.image.paste((0, 9, 0), (0, 0, 4, 4))\n"
                 "    self.display_manager.update_display()\n")
    write_plugin(plugins, "spill", "def display(self, force_clear=False):\n"
                 "    dm = self.display_manager\n"
                 "    dm.draw.rectangle((dm.width - 4, 2, dm.width + 6, 5), fill=(9, 9, 9))\n"
                 "    dm.update_display()\n")
    loadfail = write_plugin(plugins, "loadfail", "pass\n")
    (loadfail / "manager.py").write_text("raise RuntimeError('secret-load-text')\n")
    bad = plugins / "badmanifest"
    bad.mkdir()
    (bad / "manifest.json").write_text("{ not json")
    with PreviewServer(plugins, deadline=3.0) as running:
        yield running


def _image(b64: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")


def test_sizes_are_the_harness_sample_with_96x48(server: PreviewServer) -> None:
    sizes = server.get("/api/sizes").json()["sizes"]
    assert [96, 48] in sizes and len(sizes) <= 12


def test_render_matrix_gives_one_png_per_size_with_the_prepared_config(
        server: PreviewServer) -> None:
    sizes = [[32, 16], [64, 32], [96, 48]]
    answer = server.post("/api/render-matrix", {"plugin_id": "good", "sizes": sizes}).json()
    assert [r["size"] for r in answer["results"]] == sizes
    for result in answer["results"]:
        image = _image(result["image"])
        assert result["frames"] == [result["image"]]
        assert image.size == tuple(result["size"]) and result["error_class"] is None
        assert image.getpixel((0, 0)) == (150, 0, 0)  # the schema default: 50 + 100


def test_config_overlay_and_mode_reach_the_plugin(server: PreviewServer) -> None:
    answer = server.post("/api/render", {"plugin_id": "good", "size": "64x32",
                                         "config": {"level": 10}}).json()
    assert _image(answer["results"][0]["frames"][0]).getpixel((0, 0)) == (60, 0, 0)
    answer = server.post("/api/render", {"plugin_id": "good", "size": [64, 32],
                                         "mode": "good-b"}).json()
    assert answer["results"][0]["mode"] == "good-b"
    assert answer["results"][0]["modes"] == ["good-a", "good-b"]
    assert _image(answer["results"][0]["frames"][0]).getpixel((0, 0)) == (255, 0, 0)


def test_frames_step_through_an_animation(server: PreviewServer) -> None:
    answer = server.post("/api/render", {"plugin_id": "good", "size": [8, 4],
                                         "frames": 3}).json()
    frames = [_image(f) for f in answer["results"][0]["frames"]]
    assert len(frames) == 3
    assert [sum(1 for x in range(8) if f.getpixel((x, 0)) != (0, 0, 0)) for f in frames] \
        == [1, 2, 3]


def test_a_draw_off_the_panel_is_a_problem_with_the_area_to_mark(server: PreviewServer) -> None:
    answer = server.post("/api/render", {"plugin_id": "spill", "size": [64, 32]}).json()
    bounds = [p for p in answer["results"][0]["problems"] if p["check"] == "bounds"]
    assert bounds and (bounds[0]["x"], bounds[0]["y"]) == (60, 2)
    assert bounds[0]["x"] + bounds[0]["width"] <= 64
    clean = server.post("/api/render", {"plugin_id": "good", "size": [64, 32]}).json()
    assert not [p for p in clean["results"][0]["problems"] if p["check"] == "bounds"]


def test_what_a_plugin_prints_does_not_break_the_answers(server: PreviewServer) -> None:
    for _ in range(2):
        answer = server.post("/api/render", {"plugin_id": "chatty", "size": [8, 8]})
        assert answer.status_code == 200, answer.text
        result = answer.json()["results"][0]
        assert result["error_class"] is None
        assert _image(result["frames"][0]).getpixel((0, 0)) == (0, 9, 0)


def test_a_failing_display_returns_only_its_class_name(server: PreviewServer) -> None:
    response = server.post("/api/render", {"plugin_id": "raiser", "size": [64, 32]})
    assert response.status_code == 200
    assert response.json()["results"][0]["error_class"] == "ValueError"
    assert "secret-display-text" not in response.text


def test_a_plugin_calling_sys_exit_is_reported_and_the_worker_keeps_serving(
        server: PreviewServer) -> None:
    response = server.post("/api/render", {"plugin_id": "sysexit", "size": [8, 8]})
    assert response.status_code == 200
    assert response.json()["results"][0]["error_class"] == "SystemExit"
    after = server.post("/api/render", {"plugin_id": "good", "size": [8, 8]})
    assert after.json()["results"][0]["error_class"] is None


def test_a_failing_update_is_reported_by_its_class_name_only(server: PreviewServer) -> None:
    response = server.post("/api/render", {"plugin_id": "badupdate", "size": [64, 32]})
    assert response.status_code == 200
    assert "KeyError" in response.text and "secret-update-text" not in response.text


def test_a_load_failure_echoes_no_exception_text(server: PreviewServer) -> None:
    response = server.post("/api/render", {"plugin_id": "loadfail", "size": [64, 32]})
    assert response.json()["results"][0]["error_class"] == "load_failed"
    assert "secret-load-text" not in response.text and "RuntimeError" not in response.text


def test_a_bad_manifest_answers_400(server: PreviewServer) -> None:
    response = server.post("/api/render-matrix", {"plugin_id": "badmanifest"})
    assert response.status_code == 400 and response.json()["error"] == "bad_manifest"


@pytest.mark.parametrize("plugin_id", ["../good", "a" * 65, "", "good plugin", 7, "missing"])
def test_plugin_ids_outside_the_allowlist_or_unknown_are_refused(
        server: PreviewServer, plugin_id: object) -> None:
    response = server.post("/api/render-matrix", {"plugin_id": plugin_id})
    assert response.status_code == 404 and response.json()["error"] == "unknown_plugin"


@pytest.mark.parametrize("body", [["good"], "good", None])
def test_a_body_that_is_not_an_object_is_refused(server: PreviewServer, body: object) -> None:
    response = requests.post(server.url + "/api/render-matrix", json=body, timeout=30)
    assert response.status_code == 404 and response.json()["error"] == "unknown_plugin"


@pytest.mark.parametrize("frames", [0, 61, True, "2"])
def test_a_frame_count_outside_1_to_60_is_refused(server: PreviewServer, frames: object) -> None:
    response = server.post("/api/render", {"plugin_id": "good", "size": [8, 8],
                                           "frames": frames})
    assert response.status_code == 400 and response.json()["error"] == "bad_frames"


def test_more_than_12_sizes_is_refused(server: PreviewServer) -> None:
    response = server.post("/api/render-matrix",
                           {"plugin_id": "good", "sizes": [[8 + i, 8] for i in range(13)]})
    assert response.status_code == 400 and response.json()["error"] == "bad_size"
    twelve = server.post("/api/render-matrix",
                         {"plugin_id": "good", "sizes": [[8 + i, 8] for i in range(12)]})
    assert len(twelve.json()["results"]) == 12


@pytest.mark.parametrize(("plugin_id", "status", "error"),
                         [("hanger", 504, "timeout"), ("exiter", 502, "worker_exited")])
def test_a_plugin_that_hangs_or_exits_is_reported_and_the_server_keeps_answering(
        server: PreviewServer, plugin_id: str, status: int, error: str) -> None:
    response = server.post("/api/render", {"plugin_id": plugin_id, "size": [64, 32]})
    assert (response.status_code, response.json()["error"]) == (status, error)
    after = server.post("/api/render", {"plugin_id": "good", "size": [16, 8]})
    assert after.status_code == 200 and after.json()["results"][0]["error_class"] is None


def test_plugins_list_and_schema(server: PreviewServer) -> None:
    listed = {p["id"]: p for p in server.get("/api/plugins").json()["plugins"]}
    assert listed["good"]["ok"] and not listed["badmanifest"]["ok"]
    info = server.get("/api/plugins/good").json()
    assert info["schema"] == SCHEMA and info["display_modes"] == ["good-a", "good-b"]


def test_a_file_change_moves_the_version(server: PreviewServer, tmp_path: Path) -> None:
    before = server.get("/api/plugins/good/version").json()["version"]
    folder = server.plugins_dir / "good"
    (folder / "notes.json").write_text(json.dumps({"n": before}))
    deadline = 50
    for _ in range(deadline):
        now = server.get("/api/plugins/good/version").json()["version"]
        if now != before:
            break
        server.get("/api/sizes")
    assert now != before


def _worker_of(server_pid: int) -> int:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server_pid and b"preview_service.worker" in cmdline:
            return int(stat.parent.name)
    raise AssertionError("no worker process")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_a_hung_worker_does_not_outlive_the_server(tmp_path: Path, stop: int) -> None:
    write_plugin(tmp_path, "hanger", "def display(self, force_clear=False):\n"
                 "    threading.Event().wait()\n")
    with PreviewServer(tmp_path, deadline=600) as running:
        assert running.process is not None
        def render() -> None:
            with contextlib.suppress(requests.RequestException):  # the server is stopped
                running.post("/api/render", {"plugin_id": "hanger", "size": [8, 8]})

        hung = threading.Thread(target=render, daemon=True)
        hung.start()
        worker = None
        while worker is None:
            with contextlib.suppress(AssertionError):
                worker = _worker_of(running.process.pid)
        os.kill(running.process.pid, stop)
        running.process.wait(timeout=20)
        deadline = time.monotonic() + 20
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _alive(worker)


def _alive(pid: int) -> bool:
    """True while the process runs (a zombie no parent reaped yet has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize(("host", "status"), [("evil.example", 403), ("evil.example:80", 403),
                                              ("localhost", 200), ("127.0.0.1:1", 200)])
def test_on_loopback_only_loopback_host_names_are_answered(server: PreviewServer, host: str,
                                                           status: int) -> None:
    response = requests.get(server.url + "/api/sizes", headers={"Host": host}, timeout=30)
    assert response.status_code == status
