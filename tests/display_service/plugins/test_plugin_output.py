"""What plugins print goes to the log under their id, at a bounded rate: the real daemon."""

from __future__ import annotations

import io
import json
import logging
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from display_service.plugins.output import (
    FALLBACK,
    FIRST_SUMMARY,
    MAX_LINE,
    SUMMARY_INTERVAL,
    OutputLog,
    PluginOutput,
)
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.plugin_api.boundary import plugin_call
from tests.daemons import ROOT, Daemon, Instance, start_display
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install

pytestmark = pytest.mark.timeout(180)

THREAD_LINES = 200_000  # 100 bytes each: 20 MB from the plugin's own thread alone
LOGGER = "display_service.plugins.output"
DROPPED = "lines of output dropped in the last"

# Prints from display() (stderr first, then stdout) and from update() (an over-long line
# first). Each source has its own budget, so the first lines of each are logged for sure.
LOUD = """
import sys

from shared.plugin_api.base_plugin import BasePlugin

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

from shared.plugin_api.base_plugin import BasePlugin

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
            wait_until(lambda p=plugin_id: showing(instance, display) == p, timeout=60)
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


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def writer(tmp_path: Path, clock: Clock | None = None,
           timers: list[tuple[float, Any]] | None = None,
           original: io.StringIO | None = None) -> PluginOutput:
    """A stdout writer over a fresh line splitter; timers are collected, not started."""
    log = OutputLog([tmp_path / "plugin-repos"], clock=clock or Clock(),
                    schedule=lambda delay, action: (timers if timers is not None else [])
                    .append((delay, action)))
    return PluginOutput(log, logging.INFO, original)


def logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def test_a_burst_then_a_steady_rate_and_one_line_saying_what_was_dropped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    clock, timers = Clock(), []
    out = writer(tmp_path, clock, timers)
    with plugin_call("weather", "display"):
        out.write("".join(f"line {n}\n" for n in range(200)))
        clock.now += 1.0
        for n in range(200, 230):
            print(f"line {n}", file=out)
    lines = logged(caplog)
    assert lines == [f"weather: line {n}" for n in [*range(50), *range(200, 210)]]
    assert len(timers) == 1 and timers[0][0] == FIRST_SUMMARY
    clock.now += FIRST_SUMMARY
    timers[0][1]()
    assert logged(caplog)[-1] == "weather: 170 lines of output dropped in the last 6 s"
    with plugin_call("weather", "display"):
        out.write("more\n" * 100)  # the next summary waits for SUMMARY_INTERVAL
    assert timers[-1][0] == pytest.approx(SUMMARY_INTERVAL)


def test_memory_stays_bounded_by_an_endless_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    out = writer(tmp_path)
    with plugin_call("weather", "display"):
        for _ in range(100):
            out.write("x" * 100_000)  # 10 MB, no line end
        sources = out._log._sources  # the held state is what is measured
        assert sum(len(text) for text in sources["weather"].partial.values()) == MAX_LINE
        out.write("\n")
    assert logged(caplog) == [f"weather: {'x' * MAX_LINE} ... (9999500 more characters)"]


def test_logging_that_writes_to_stderr_does_not_loop_and_print_never_raises(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    original = io.StringIO()
    out = writer(tmp_path, original=original)

    class Echo(logging.Handler):
        """A handler writing to the replaced stream, as logging's own error path does."""

        def emit(self, record: logging.LogRecord) -> None:
            out.write(f"echo {record.getMessage()}\n")
            raise RuntimeError("handler broke")

    target = logging.getLogger(LOGGER)
    handler = Echo()
    target.addHandler(handler)
    try:
        with plugin_call("weather", "display"):
            assert out.write("hello\n") == len("hello\n")
            print("and again", file=out)
    finally:
        target.removeHandler(handler)
    assert "echo weather: hello\n" in original.getvalue()


def test_lines_from_threads_stay_whole_and_go_to_their_own_plugin(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    out = writer(tmp_path)

    def talk(plugin_id: str) -> None:
        with plugin_call(plugin_id, "update"):
            for n in range(40):
                print(plugin_id, n, "x" * 50, file=out)

    threads = [threading.Thread(target=talk, args=(f"p{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    lines = logged(caplog)
    assert len(lines) == 8 * 40
    for line in lines:
        plugin_id, rest = line.split(": ", 1)
        assert re.fullmatch(rf"{plugin_id} \d+ x{{50}}", rest), line


def test_code_under_a_plugins_folder_is_named_by_that_folder(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    folder = tmp_path / "plugin-repos" / "ticker"
    folder.mkdir(parents=True)
    code = folder / "worker.py"
    code.write_text("def run(out):\n    print('from my thread', file=out)\n")
    namespace: dict[str, Any] = {}
    exec(compile(code.read_text(), str(code), "exec"), namespace)
    out = writer(tmp_path)
    thread = threading.Thread(target=namespace["run"], args=(out,))  # no plugin call
    thread.start()
    thread.join(10)
    print("from the core", file=out)
    assert logged(caplog) == ["ticker: from my thread", f"{FALLBACK}: from the core"]
