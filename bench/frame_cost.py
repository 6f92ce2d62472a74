"""Frame cost: render and push one frame of scrolling text, headless, in process.

Target (issue 3): p99 < 4 ms at 128x32 on this machine (a Pi 3 is roughly 8-10x
slower: that is the budget for 100 Hz).

One frame is what a scrolling plugin's ``display()`` does with the real pieces: the
``ScrollConfig`` engages the frame hold, the ``ScrollHelper`` (shared/plugin_api/common) moves one
step and crops the visible window of a long text strip drawn in Press Start 2P (a
shipped font, at half the panel height), the window is pasted on
``display_manager.image``, and ``display_manager.update_display()`` pushes it: the
benchmark thread is bound as the render thread (``bind_render_thread``, what the render
loop does), so the frame goes through the display manager's change check (a blake2b
digest of the canvas) to ``HeadlessMatrix.show`` (a copy of the frame) at once.
The helper runs continuously (wrapping at the end of the strip), one pixel per frame,
so every frame differs from the last and is pushed.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from bench.common import percentile
from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.plugin_api.common import scroll_config
from shared.plugin_api.common.scroll_helper import ScrollHelper

SIZES = ((128, 32), (192, 48), (256, 64))
FRAMES = 3_000
WARM_UP = 300
TEXT = " +++ ".join(
    f"Headline {i}: Local team wins 3-2 after extra time; rain expected tonight, 12 C"
    for i in range(1, 6))


def measure(width: int, height: int, frames: int, warm_up: int = WARM_UP) -> dict[str, float]:
    """Render ``frames`` frames at ``width`` x ``height``; return timings in ms."""
    display = DisplayManager(HeadlessMatrix(width, height))
    display.bind_render_thread()
    font = display.font_manager.get_font("press-start-2p", height // 2)
    helper = ScrollHelper(width, height)
    helper.continuous = True
    pacing = scroll_config.configure({"scroll_pixels_per_second": 100}, display, helper=helper)
    helper.create_scrolling_image(TEXT, font=font, color=(255, 200, 0))

    def frame() -> None:
        pacing.engage(display)
        helper.update_scroll_position()
        visible = helper.get_visible_portion()
        assert visible is not None
        display.image.paste(visible, (0, 0))
        display.update_display()

    for _ in range(warm_up):
        frame()
    gc.collect()
    pushed_before = display.frames_pushed
    samples = []
    clock = time.perf_counter_ns
    for _ in range(frames):
        started = clock()
        frame()
        samples.append((clock() - started) / 1e6)
    pushed = display.frames_pushed - pushed_before
    if pushed != frames:
        raise SystemExit(f"{width}x{height}: only {pushed} of {frames} frames were pushed")
    return {"mean": statistics.fmean(samples), "p50": statistics.median(samples),
            "p99": percentile(samples, 99), "max": max(samples),
            "strip": helper.total_scroll_width, "step": pacing.step_px,
            "hold": pacing.frame_hold}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=FRAMES)
    args = parser.parse_args()
    for width, height in SIZES:
        r = measure(width, height, args.frames)
        print(f"frame cost {width}x{height}: mean {r['mean']:.3f} ms, p50 {r['p50']:.3f} ms, "
              f"p99 {r['p99']:.3f} ms, max {r['max']:.2f} ms over {args.frames:,} frames "
              f"(strip {r['strip']:,} px, step {r['step']} px, hold {r['hold']})")


if __name__ == "__main__":
    main()
