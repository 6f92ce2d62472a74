"""No plugin can make an image big enough to take the machine's memory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageOps

from display_service.plugins import image_guard
from display_service.plugins.image_guard import PIXEL_LIMIT, ImageTooLarge
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.hardware.mappings import MAX_OUTPUTS
from shared.hardware.rules import PANEL_RANGES
from tests.daemons import ROOT, Daemon, Instance, start_display
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install

# display() asks for a 100000x100000 image: 30 GB as RGB.
HUGE = '''
from PIL import Image

from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        self.canvas = Image.new("RGB", (100000, 100000))
        return True
'''

# update() opens a small PNG file that decodes to 400 million pixels.
BOMB = '''
from pathlib import Path

from PIL import Image

from shared.plugin_api.base_plugin import BasePlugin

HERE = Path(__file__).resolve().parent


class Plugin(BasePlugin):
    def update(self):
        with Image.open(HERE / "bomb.png") as image:
            image.load()

    def display(self, force_clear=False):
        return False
'''


@pytest.fixture
def guarded() -> Iterator[None]:
    image_guard.install()
    try:
        yield
    finally:
        image_guard.uninstall()


@pytest.mark.usefixtures("guarded")
@pytest.mark.parametrize("make", [
    lambda: Image.new("RGB", (100000, 100000)),
    lambda: Image.new("L", size=(5000, 5000)),
    lambda: Image.new("RGB", (8, 8)).resize((5000, 5000)),
    lambda: Image.new("RGB", (8, 8)).crop((0, 0, 5000, 5000)),
    lambda: Image.new("RGB", (4000, 4000)).rotate(45, expand=True),
    lambda: ImageOps.expand(Image.new("RGB", (8, 8)), border=3000),
    lambda: Image.frombytes("RGB", (100000, 100000), b""),
    lambda: Image.effect_noise((60000, 60000), 10),
    lambda: Image.effect_mandelbrot((60000, 60000), (-2, -1.5, 1, 1.5), 10),
], ids=["new", "new-keyword", "resize", "crop", "rotate-expand", "expand", "frombytes",
        "noise", "mandelbrot"])
def test_every_way_to_a_huge_image_is_refused_before_memory_is_taken(make: Any) -> None:
    with pytest.raises(ImageTooLarge, match=r"is larger than the display's limit of "
                                            r"16,777,216 pixels"):
        make()


def test_opening_a_file_larger_than_the_limit_raises(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    Image.new("1", (6000, 6000)).save(path)
    image_guard.install()
    try:
        with pytest.raises(Image.DecompressionBombError):
            Image.open(path)
    finally:
        image_guard.uninstall()
    with Image.open(path) as image:  # uninstall puts Pillow back
        assert image.size == (6000, 6000)


@pytest.mark.usefixtures("guarded")
def test_the_largest_panel_the_rules_allow_still_fits() -> None:
    width = PANEL_RANGES["cols"][1] * PANEL_RANGES["chain_length"][1]
    height = PANEL_RANGES["rows"][1] * MAX_OUTPUTS
    assert width * height <= PIXEL_LIMIT
    canvas = Image.new("RGB", (width, height))
    assert canvas.rotate(90, expand=True).size == (height, width)
    assert canvas.crop((0, 0, width, height)).size == (width, height)
    assert Image.new("RGB", (64, 32)).resize((128, 64)).size == (128, 64)


def rss_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"{field} missing")


def showing(instance: Instance, display: Daemon) -> str | None:
    state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}
    return state.get("plugin_id") if state.get("pid") == display.process.pid else None


def errors_of(instance: Instance, plugin_id: str) -> dict[str, Any]:
    return (Bus(instance.cache_dir).read(keys.PLUGIN_ERRORS) or {}).get(plugin_id) or {}


@pytest.mark.timeout(120)
def test_a_plugin_asking_for_a_30_gb_image_gets_an_error_and_the_panel_carries_on(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id, source in (("still", STILL), ("huge", HUGE), ("bomb", BOMB)):
        install(instance.plugins_dir, plugin_id, source)
        config[plugin_id] = {"enabled": True}
    Image.new("1", (20000, 20000)).save(instance.plugins_dir / "bomb" / "bomb.png")
    config["display_durations"] = {"still": 2, "huge": 2, "bomb": 2}
    instance.write_config(config)
    display = start_display(instance)
    try:
        huge = wait_until(lambda: errors_of(instance, "huge").get("count", 0) >= 2, timeout=30)
        assert huge
        record = errors_of(instance, "huge")
        assert record["where"] == "display"
        assert record["last_error"] == ("ImageTooLarge: image 100000x100000 is larger than "
                                        "the display's limit of 16,777,216 pixels")
        bomb = wait_until(lambda: errors_of(instance, "bomb"), timeout=20)
        assert bomb["where"] == "update"
        assert bomb["last_error"].startswith("DecompressionBombError: Image size (400000000")
        # The rotation goes on: huge is tried again at each turn, still is shown.
        wait_until(lambda: showing(instance, display) == "still", timeout=20)
        count = errors_of(instance, "huge")["count"]
        wait_until(lambda: errors_of(instance, "huge")["count"] > count, timeout=20)
        wait_until(lambda: showing(instance, display) == "still", timeout=20)
        # The peak, not only now: the memory was never taken.
        assert rss_mb(display.process.pid, "VmHWM") < 300
        assert display.process.poll() is None
    finally:
        assert display.stop() == 0, display.output()[-3000:]
