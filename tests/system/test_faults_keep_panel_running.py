"""Every fault at once: both daemons keep answering and the panel keeps rotating.

One instance gets the hostile plugins of ``tests.hostile_plugins`` next to two good ones (exits,
interrupts, ``os._exit`` in calls and in threads, signals to itself, a 10-gigapixel
image, a flood of output, a ``display()`` that never returns), then a
FIFO and a directory where bus files belong, garbage in the display's state file, a
hand edit of config.json that no JSON reader should accept, and hostile request
bodies. After each plant the web answers and the display still shows both good
plugins in turn.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Daemon, Instance, running
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install, install_hostile

pytestmark = pytest.mark.timeout(240)

HOSTILE = ("exits", "interrupts", "hard-exit", "update-exit", "load-exit", "big-image",
           "chatty", "timer-exit", "kills-self", "interrupt-main", "thread-exit", "hangs")


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    for good in ("still", "still-two"):
        install(instance.plugins_dir, good, STILL)
    for plugin_id in HOSTILE:
        install_hostile(instance.plugins_dir, plugin_id)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id in ("still", "still-two", *HOSTILE):
        config[plugin_id] = {"enabled": True}
    config["display_durations"] = {p: 1 for p in ("still", "still-two", *HOSTILE)}
    instance.write_config(config)
    return instance


def rotates(instance: Instance, display: Daemon, within: float = 30) -> None:
    """Both good plugins are shown by this display process, one after the other."""
    bus, seen = Bus(instance.cache_dir), []

    def both() -> bool:
        state = bus.read(keys.DISPLAY_STATE) or {}
        if state.get("pid") == display.process.pid and state.get("plugin_id") in (
                "still", "still-two") and state["plugin_id"] not in seen[-1:]:
            seen.append(state["plugin_id"])
        return {"still", "still-two"} <= set(seen)

    wait_until(both, timeout=within)
    assert display.process.poll() is None


def answers(url: str) -> None:
    started = time.monotonic()
    status = requests.get(f"{url}/api/v3/system/status", timeout=5)
    assert status.status_code == 200
    assert time.monotonic() - started < 5
    assert status.json()["data"]["display"]["service"] == "running"


def test_planted_faults_leave_both_daemons_answering_and_the_panel_rotating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_HANG_SECONDS", "1.5")
    instance = make_instance(tmp_path)
    (instance.plugins_dir / "hangs" / "hang").touch()
    with running(instance) as (display, _web, url):
        # The hung plugin costs one restart in place, then it is kept out.
        wait_until(lambda: "hangs" in ((Bus(instance.cache_dir).read(keys.PLUGIN_SAFE_MODE)
                                        or {}).get("plugins") or {}), timeout=60)
        rotates(instance, display)
        answers(url)

        # Files: a FIFO and a directory named like bus files both daemons read.
        os.mkfifo(instance.cache_dir / f"{keys.PREVIEW_VIEWER}.json")
        (instance.cache_dir / f"{keys.CONFIG_CHANGED}.json").unlink(missing_ok=True)
        (instance.cache_dir / f"{keys.CONFIG_CHANGED}.json").mkdir()
        answers(url)
        rotates(instance, display)

        # A hand edit no JSON reader accepts: the display keeps its running config.
        config_file = instance.config_dir / "config.json"
        good = config_file.read_text()
        config_file.write_text(good.replace('"brightness": ', '"brightness": NaN, "x": ', 1))
        time.sleep(1)
        answers(url)
        rotates(instance, display)
        config_file.write_text(good)

        # Hostile bodies: refused with a 400, nothing changes, nobody stops.
        deep = "[" * 900 + "]" * 900
        for body in (deep, '{"brightness": ' + "9" * 5000 + "}", '{"x": "\\ud800"}'):
            answer = requests.post(f"{url}/api/v3/config/main", data=body, timeout=5,
                                   headers={"Content-Type": "application/json"})
            assert answer.status_code == 400, answer.text
        assert config_file.read_text() == good
        answers(url)
        rotates(instance, display)

        errors = Bus(instance.cache_dir).read(keys.PLUGIN_ERRORS) or {}
        for plugin_id in ("exits", "interrupts", "hard-exit", "update-exit", "big-image",
                          "kills-self", "interrupt-main"):
            assert errors.get(plugin_id, {}).get("count", 0) >= 1, plugin_id
        assert "larger than the display's limit" in errors["big-image"]["last_error"]
        # The chatty plugin's megabytes went to the log as a few hundred lines at most.
        assert "chatty: " + "x" * 100 in display.output()
        assert len(display.output()) < 400_000
        rss_kb = int(next(line.split()[1] for line in
                          Path(f"/proc/{display.process.pid}/status").read_text().splitlines()
                          if line.startswith("VmHWM:")))
        assert rss_kb < 300_000  # peak resident memory: no 30 GB image was ever made
