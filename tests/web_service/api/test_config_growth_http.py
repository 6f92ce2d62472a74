"""Large bodies cannot grow the config, its backups or the web process: a real web
daemon over real HTTP, 25 posts of 1.9 MB on every save path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from shared.config.backups import KEEP_BACKUPS
from shared.config.sizes import MAX_FILE_BYTES
from tests.daemons import Instance, start_web
from tests.web_service.conftest import write_plugin

pytestmark = pytest.mark.timeout(300)

BLOB = "x" * 1_900_000


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[Instance, str, int]]:
    instance = Instance(tmp_path)
    write_plugin(instance.plugins_dir, "clock")
    daemon, url = start_web(instance)
    try:
        yield instance, url, daemon.process.pid
    finally:
        daemon.stop()


def test_many_large_posts_leave_the_config_and_backups_bounded(web) -> None:
    instance, url, pid = web
    config_file = instance.config_dir / "config.json"
    template = json.loads(config_file.read_text())
    posts = [
        ("/api/v3/config/main", {"json": {"clock": {"title": BLOB}}}),
        ("/api/v3/config/main", {"json": {"display": {"junk": BLOB}}}),
        ("/api/v3/config/main", {"data": {"clock.title": BLOB}}),
        ("/api/v3/plugins/config", {"json": {"plugin_id": "clock", "config": {"title": BLOB}}}),
        ("/api/v3/config/raw/main", {"data": json.dumps({**template, "clock": {"t": BLOB}})}),
    ]
    rss_before = rss_kib(pid)
    for _ in range(5):
        for route, body in posts:
            answer = requests.post(url + route, timeout=30, **body)  # type: ignore[arg-type]
            assert answer.status_code in (400, 413), (route, answer.text[:300])
            assert answer.json()["error_code"] in ("CONFIG_TOO_LARGE", "UNKNOWN_KEY")
    # Saves near the limits are taken, and the backups still rotate within bounds.
    for n in range(KEEP_BACKUPS + 3):
        answer = requests.post(f"{url}/api/v3/plugins/config", timeout=30,
                               json={"plugin_id": "clock", "config": {"title": f"{n}" * 200_000}})
        assert answer.status_code == 200, answer.text[:300]
    assert config_file.stat().st_size <= MAX_FILE_BYTES
    backups = list((instance.config_dir / "backups").iterdir())
    assert len(backups) <= KEEP_BACKUPS
    assert sum(p.stat().st_size for p in backups) <= KEEP_BACKUPS * MAX_FILE_BYTES
    assert rss_kib(pid) - rss_before < 150 * 1024, "the web process grew past 150 MB"
