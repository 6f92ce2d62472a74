"""``ledpanel-preview``: the console script, its defaults, and the plugins directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests

from preview_service.__main__ import DEFAULT_PORT, parse_args
from tests.preview_service.server import write_plugin


def test_defaults_are_loopback_and_port_5001() -> None:
    args = parse_args([])
    assert (args.host, args.port, DEFAULT_PORT) == ("127.0.0.1", 5001, 5001)


def test_the_console_script_serves_the_plugins_dir_given(tmp_path: Path) -> None:
    write_plugin(tmp_path, "only-one", "pass\n")
    script = Path(sys.executable).parent / "ledpanel-preview"
    process = subprocess.Popen([str(script), "--port", "0", "--plugins-dir", str(tmp_path)],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:")
        listed = requests.get(url + "api/plugins", timeout=30).json()["plugins"]
        assert [p["id"] for p in listed] == ["only-one"]
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0
