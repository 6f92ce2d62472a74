"""The preview server: render-matrix for 12 sizes, and a saved file to the new image.

Targets (issue 19): render-matrix for 12 sizes of a typical plugin (the bundled
web-ui-info) under 1 s; a plugin file saved to the new image on the page under 1 s.
The real server and its worker run as subprocesses on loopback, on a copy of the plugin
in a temporary folder. The reload is timed as the page does it: poll the change counter
(every 250 ms on the page, every 20 ms here, so add up to 230 ms for the page), then
render the size shown, until the image differs from the one before the save.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from bench.common import summary

ROOT = Path(__file__).resolve().parents[1]
SIZES = [[64, 32], [128, 32], [64, 64], [96, 48], [128, 64], [256, 32], [128, 96],
         [256, 128], [32, 16], [192, 64], [192, 96], [384, 64]]
RUNS = 10


def _matrix(session: requests.Session, url: str) -> float:
    started = time.perf_counter()
    answer = session.post(f"{url}/api/render-matrix",
                          json={"plugin_id": "web-ui-info", "sizes": SIZES}, timeout=60)
    elapsed = (time.perf_counter() - started) * 1000
    results = answer.json()["results"]
    if len(results) != 12 or any(r["error_class"] for r in results):
        raise SystemExit(answer.text[:500])
    return elapsed


def _reload(session: requests.Session, url: str, source: Path, original: str,
            index: int) -> float:
    body = {"plugin_id": "web-ui-info", "size": [128, 32]}
    before = session.post(f"{url}/api/render", json=body, timeout=60).json()
    version = session.get(f"{url}/api/plugins/web-ui-info/version", timeout=10).json()
    marker = 'str(self.config.get("title", DEFAULT_TITLE))'
    text = original.replace(marker, f'{marker} + "{index}"', 1)
    started = time.perf_counter()
    source.write_text(text)
    while session.get(f"{url}/api/plugins/web-ui-info/version",
                      timeout=10).json() == version:
        time.sleep(0.02)
    after = session.post(f"{url}/api/render", json=body, timeout=60).json()
    elapsed = (time.perf_counter() - started) * 1000
    if after["results"][0]["frames"] == before["results"][0]["frames"]:
        raise SystemExit("the saved change did not show")
    return elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        plugins = Path(tmp) / "plugins"
        shutil.copytree(ROOT / "plugin-repos" / "web-ui-info", plugins / "web-ui-info",
                        ignore=shutil.ignore_patterns("__pycache__", "tests"))
        server = subprocess.Popen([sys.executable, "-m", "preview_service", "--port", "0",
                                   "--plugins-dir", str(plugins)], cwd=ROOT,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[-1].rstrip("/")
            session = requests.Session()
            first = _matrix(session, url)
            matrix = [_matrix(session, url) for _ in range(RUNS)]
            source = plugins / "web-ui-info" / "manager.py"
            original = source.read_text()
            reloads = [_reload(session, url, source, original, i) for i in range(RUNS)]
        finally:
            server.terminate()
            server.wait(timeout=20)
    print(f"render-matrix, 12 sizes: first (worker start) {first:.0f} ms; then {summary(matrix)}")
    print(f"file saved to new image (128x32): {summary(reloads)}")


if __name__ == "__main__":
    main()
