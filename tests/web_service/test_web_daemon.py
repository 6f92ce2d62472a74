"""The web daemon process: where it listens, how it refuses to start, how it stops."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import requests

from tests.daemons import ROOT, Instance, start_web, wait_http


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_listens_on_the_configured_port_when_no_flag_is_given(tmp_path):
    instance = Instance(tmp_path)
    port = _free_port()
    template = json.loads((ROOT / "config" / "config.template.json").read_text())
    template["web"]["port"] = port
    instance.write_config(template)
    process = subprocess.Popen(
        [sys.executable, "-m", "web_service", "--host", "127.0.0.1", *instance.dir_flags()],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_http(f"http://127.0.0.1:{port}/api/v3/health", 15)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert process.returncode == 0, output
    assert "ledpanel-web stopped" in output


def test_unwritable_bus_dir_stops_start_with_a_clear_message(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    result = subprocess.run(
        [sys.executable, "-m", "web_service", "--port", "0", "--cache-dir", str(blocker / "bus"),
         "--config-dir", str(tmp_path / "config")],
        cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "cannot start" in result.stderr and str(blocker / "bus") in result.stderr
    assert "Traceback" not in result.stderr


def test_first_start_creates_the_config_from_the_template(tmp_path):
    instance = Instance(tmp_path)
    web, url = start_web(instance)
    try:
        config = requests.get(f"{url}/api/v3/config/main", timeout=5).json()["data"]
    finally:
        assert web.stop() == 0
    assert config["display"]["hardware"]["hardware_mapping"] == "vendor-hat"
    assert json.loads((instance.config_dir / "config.json").read_text()) == config


def test_a_web_section_of_the_wrong_shape_falls_back_to_the_default_port():
    from shared.cli_args import DEFAULT_WEB_PORT, configured_port

    for config in ({"web": "x"}, {"web": [1]}, {"web": {"port": True}}, {"web": {"port": "80"}},
                   {"web": {"port": 70000}}, {}):
        assert configured_port(config) == DEFAULT_WEB_PORT
    assert configured_port({"web": {"port": 8080}}) == 8080
