"""A writer killed with SIGKILL at any moment leaves a config.json that parses."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from shared.config.backups import list_backups
from shared.config.store import ConfigStore
from shared.paths import ROOT, Paths

KILLS = 30

WRITER = textwrap.dedent(
    """
    import json, sys
    from shared.config.store import ConfigStore
    from shared.paths import resolve_paths

    store = ConfigStore(resolve_paths(config_dir=sys.argv[1], cache_dir=sys.argv[1], env={}))
    configs = json.loads(open(sys.argv[2]).read())
    store.save(configs[0])
    print("ready", flush=True)
    n = 1
    while True:
        store.save(configs[n % 2])
        n += 1
    """
)


def _big_config(tag: str) -> dict[str, Any]:
    items = [f"{tag}-item-{j}" for j in range(60)]
    plugins = {f"p{i}": {"enabled": i % 2 == 0, "tag": tag, "items": items} for i in range(80)}
    return {"brightness": 50 if tag == "a" else 80, **plugins}


def test_config_survives_a_writer_killed_mid_save(paths: Paths, tmp_path: Path) -> None:
    configs = [_big_config("a"), _big_config("b")]
    assert len(json.dumps(configs[0])) > 50_000
    configs_file = tmp_path / "configs.json"
    configs_file.write_text(json.dumps(configs))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rng = random.Random(1234)
    for _ in range(KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(paths.config_dir), str(configs_file)],
            env=env, stdout=subprocess.PIPE, text=True,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.04))
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=10)
        assert writer.returncode == -signal.SIGKILL
        on_disk = json.loads(paths.config_file.read_text(encoding="utf-8"))
        assert on_disk in configs
        for backup in list_backups(paths):
            assert json.loads(backup.read_text(encoding="utf-8")) in configs
    assert len(list_backups(paths)) <= 5
    store = ConfigStore(paths)
    store.ensure()
    leftovers = [p.name for p in paths.config_dir.rglob("*.tmp")]
    assert leftovers == []
