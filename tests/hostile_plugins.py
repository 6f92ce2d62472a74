"""Hostile plugins, as fixtures: each does one thing no plugin should do to the daemon."""

from __future__ import annotations

import json
from pathlib import Path

# A plugin that behaves: it draws a green square and says so.
STILL = '''
from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.draw.rectangle((0, 0, 3, 3), fill=(0, 255, 0))
        self.display_manager.update_display()
        return True
'''

# Each body is the plugin's ``display()`` (or the named hook), the rest as STILL.
_TEMPLATE = '''
import os
import sys
import time
from pathlib import Path

from shared.plugin_api.base_plugin import BasePlugin

HERE = Path(__file__).resolve().parent


class Plugin(BasePlugin):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
{init}

    def update(self):
{update}

    def display(self, force_clear=False):
{display}
        return True
'''

_PASS = "        pass"

HOSTILE: dict[str, dict[str, str]] = {
    # display() calls sys.exit(3).
    "exits": {"display": "        sys.exit(3)"},
    # display() raises KeyboardInterrupt.
    "interrupts": {"display": "        raise KeyboardInterrupt"},
    # display() ends the process at once, skipping every handler.
    "hard-exit": {"display": "        os._exit(9)"},
    # update() (on its own thread) ends the process.
    "update-exit": {"update": "        os._exit(5)"},
    # __init__ ends the process: every start would die the same way.
    "load-exit": {"init": "        os._exit(7)"},
    # A thread the plugin starts ends the process a moment after loading.
    "thread-exit": {"init": "        import threading\n"
                            "        threading.Thread(target=lambda: (time.sleep(1), os._exit(3)),"
                            " daemon=True).start()"},
    # display() asks Pillow for a 10-gigapixel image (about 30 GB).
    "big-image": {"display": "        from PIL import Image\n"
                             "        Image.new('RGB', (100000, 100000))"},
    # update() and display() print without pause (megabytes a second).
    "chatty": {"update": "        for _ in range(20000):\n            print('x' * 100)",
               "display": "        print('drawing ' * 1000, file=sys.stderr)"},
    # display() starts a timer whose thread calls os._exit(0) half a second later.
    "timer-exit": {"display": "        import threading\n"
                              "        threading.Timer(0.5, os._exit, (0,)).start()"},
    # display() sends SIGTERM to its own process (a clean stop: nobody restarts it).
    "kills-self": {"display": "        import signal\n"
                              "        os.kill(os.getpid(), signal.SIGTERM)"},
    # display() interrupts the main thread, as Ctrl-C would.
    "interrupt-main": {"display": "        import _thread\n        _thread.interrupt_main()"},
    # display() queues deferred work that never returns while "hang" sits in its folder.
    "deferred-hang": {"display": "        def stuck():\n"
                                 "            while (HERE / 'hang').exists():\n"
                                 "                time.sleep(0.05)\n"
                                 "        self.display_manager.defer_update(stuck)"},
    # display() never returns while the file "hang" sits in its folder.
    "hangs": {"display": "        while (HERE / 'hang').exists():\n            time.sleep(0.05)"},
    # display() spins inside the regex engine with the GIL held while "stuck" exists: no
    # Python thread of the process runs then, the hang watch included.
    "gil": {"display": "        import re\n        if (HERE / 'stuck').exists():\n"
                       "            re.match(r'(a+)+$', 'a' * 64 + '!')"},
    # display() takes 3 s (under the hang limit): a kill then lands inside the call.
    "slow": {"display": "        time.sleep(3)"},
}


def plugin_source(spec: dict[str, str]) -> str:
    """Return the manager.py of a hostile plugin described by ``spec``."""
    return _TEMPLATE.format(init=spec.get("init", _PASS), update=spec.get("update", _PASS),
                            display=spec.get("display", _PASS))


def install(plugins_dir: Path, plugin_id: str, source: str) -> Path:
    """Write a plugin (manifest and manager.py) into ``plugins_dir``; return its folder."""
    directory = plugins_dir / plugin_id
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id.title(), "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Plugin", "display_modes": [plugin_id],
        "compatible_versions": [">=3.0.0"], "update_interval": 1}))
    (directory / "manager.py").write_text(source)
    return directory


def install_hostile(plugins_dir: Path, plugin_id: str) -> Path:
    """Install the hostile plugin ``plugin_id`` of ``HOSTILE``."""
    return install(plugins_dir, plugin_id, plugin_source(HOSTILE[plugin_id]))
