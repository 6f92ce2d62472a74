"""What plugins print goes to the log under their id, at a bounded rate: the real daemon."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shared import bus as keys
from shared.bus import Bus
from tests.daemons import ROOT, Daemon, Instance, start_display
from tests.display_service.helpers import wait_until
from tests.hostile import STILL, install

pytestmark = pytest.mark.timeout(180)

THREAD_LINES = 200_000  # 100 bytes each: 20 MB from the plugin's own thread alone
LOGGER = "display_service.plugins.output"
DROPPED = "lines of output dropped in the last"

# Prints from display() (stderr first, then stdout) and from update() (an over-long line
# first). Each source has its own budget, so the first lines of each are logged for sure.
LOUD = """
import sys

from shared.plugin_system.base_plugin import BasePlugin

FILLER = "z" * 90


class Plugin(BasePlugin):
    def update(self):
        print("U" * 5000)
        for number in range(20_000):
            print("update", number, FILLER)

    def display(self, force_clear=False):
        print("display trouble", file=sys.stderr)
        for number in range(2_000):
            print("display", number, FILLER)
        self.display_manager.draw.rectangle((0, 0, 3, 3), fill=(255, 0, 0))
        self.display_manager.update_display()
        return True
"""

# Prints from a thread it starts itself, which no plugin call covers.
THREADED = f"""
import threading
from pathlib import Path

from shared.plugin_system.base_plugin import BasePlugin

HERE = Path(__file__).resolve().parent
FILLER = "z" * 90


def chatter():
    for number in range({THREAD_LINES}):
        print("thread", number, FILLER)
    (HERE / "thread-done").write_text("")


class Plugin(BasePlugin):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        threading.Thread(target=chatter, daemon=True).start()

    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.draw.rectangle((0, 0, 3, 3), fill=(0, 0, 255))
        self.display_manager.update_display()
        return True
"""
PLUGINS = {"still": STILL, "loud": LOUD, "threaded": THREADED}


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id, source in PLUGINS.items():
        install(instance.plugins_dir, plugin_id, source)
        config[plugin_id] = {"enabled": True}
    config["display_durations"] = {plugin_id: 2 for plugin_id in PLUGINS}
    instance.write_config(config)
    return instance


def showing(instance: Instance, display: Daemon) -> str | None:
    state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}
    return state.get("plugin_id") if state.get("pid") == display.process.pid else None


def test_plugins_printing_megabytes_get_a_few_log_lines_under_their_ids(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    display = start_display(instance)
    try:
        wait_until(lambda: (instance.plugins_dir / "threaded" / "thread-done").exists(),
                   timeout=120)
        # The panel kept rotating through it all, and keeps doing so.
        for plugin_id in ("loud", "still", "threaded", "loud", "still"):
            wait_until(lambda p=plugin_id: showing(instance, display) == p, timeout=20)
        for plugin_id in ("loud", "threaded"):
            wait_until(lambda p=plugin_id: re.search(rf"{p}: \d+ {DROPPED}", display.output()),
                       timeout=40)
        assert display.process.poll() is None
    finally:
        assert display.stop() == 0, display.output()[-3000:]
    log = display.output()
    for plugin_id, line in (("loud", "display 0"), ("loud", "update 0"),
                            # the plugin's own thread: no call marks it, its code's folder
                            ("threaded", "thread 0")):
        assert f"INFO {LOGGER}: {plugin_id}: {line} {'z' * 90}\n" in log, line
    assert f"WARNING {LOGGER}: loud: display trouble\n" in log
    assert f"INFO {LOGGER}: loud: {'U' * 500} ... (4500 more characters)\n" in log
    assert re.search(rf"WARNING {LOGGER}: loud: \d+ {DROPPED} \d+ s$", log, re.MULTILINE)
    # Every printed line went through the log, none straight to the terminal.
    assert all(re.search(rf"{LOGGER}: (loud|threaded): ", line)
               for line in log.splitlines() if "zzzz" in line)
    assert len(log.encode()) < 200_000, f"{len(log.encode())} bytes of log"
