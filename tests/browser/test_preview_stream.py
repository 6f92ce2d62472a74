"""The Overview's live picture in a real browser against real daemons: frames come from
/stream/preview, drawn at the panel's aspect ratio in whole pixels; with every stream
slot taken the page polls the preview route instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.daemons import start_display, start_web
from tests.system.test_no_lost_changes import make_instance, running_state
from tests.web_service.log_helpers import open_stream

pytestmark = pytest.mark.timeout(120)


def drawn(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
        const img = document.getElementById("preview");
        const box = img.getBoundingClientRect();
        return {source: img.dataset.source, natural: [img.naturalWidth, img.naturalHeight],
                shown: [box.width, box.height], src: img.src,
                rendering: getComputedStyle(img).imageRendering};
    }""")


def test_the_overview_draws_frames_from_the_preview_stream(
        tmp_path: Path, page: Any, shoot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "1")  # a closed stream is noticed soon
    instance = make_instance(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    try:
        running_state(instance, display)
        page.goto(url)
        page.wait_for_selector("#preview[data-source='stream']", state="visible")
        found = drawn(page)
        assert found["src"].startswith("data:image/png;base64,")
        assert found["natural"] == [128, 32]
        width, height = found["shown"]
        assert width / 128 == height / 32 and width % 128 == 0 and width >= 128
        assert found["rendering"] == "pixelated"
        assert f"{url}/stream/preview" in requested
        assert not any("/api/v3/display/preview" in u for u in requested)
        shoot(page, "streamed")
        # A hidden Overview closes the stream: the display stops encoding frames.
        page.click(".tab-bar [data-tab='general']")
        frame_file = instance.cache_dir / "preview_frame.json"
        for _ in range(50):
            if not frame_file.exists():
                break
            page.wait_for_timeout(200)
        assert not frame_file.exists()
    finally:
        web.stop()
        display.stop()


def test_the_overview_polls_when_every_stream_slot_is_taken(tmp_path: Path, page: Any) -> None:
    instance = make_instance(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    streams = []
    try:
        running_state(instance, display)
        for _ in range(4):
            streams.append(open_stream(f"{url}/stream/stats"))
            streams[-1].until("stats")
        page.goto(url)
        page.wait_for_selector("#preview[data-source='polling']", state="visible")
        assert drawn(page)["natural"] == [128, 32]
    finally:
        for stream in streams:
            stream.close()
        web.stop()
        display.stop()
