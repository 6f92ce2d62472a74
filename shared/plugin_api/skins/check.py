"""``ledpanel skin check``'s checks: manifest, API version, import, each mode rendered
on a test canvas at a few sizes, the render budget.

``check_skin`` runs skin code in the calling process; what a skin does wrong is a
finding, never an exception out of it. ``ledpanel skin check`` runs it in a process of
its own (``python -m shared.plugin_api.skins.check DIR``: the report as one JSON line),
so a skin that hangs in its import or a render is stopped at a deadline.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.plugin_api.boundary import CONTAINED
from shared.plugin_api.skins.api import ScoreboardSkin, build_context
from shared.plugin_api.skins.loading import SkinLoadError, load_info
from shared.plugin_api.skins.manifest import NAME, read_skin
from shared.plugin_api.skins.runner import RENDER_BUDGET

CHECK_SIZES = ((64, 32), (128, 32), (64, 64))
SAMPLE_GAME: dict[str, Any] = {
    "home_abbr": "HOM", "away_abbr": "AWY", "home_score": 3, "away_score": 1,
    "home_id": "1", "away_id": "2", "status_text": "Q4 2:00", "start_time": "19:30",
    "is_live": True, "is_final": False, "is_upcoming": False,
}


@dataclass
class SkinReport:
    """What the check found: ``(severity, message)`` lines and how many renders ran."""

    findings: list[tuple[str, str]] = field(default_factory=list)
    renders: int = 0

    def add(self, severity: str, message: str) -> None:
        self.findings.append((severity, message))

    @property
    def errors(self) -> int:
        return sum(1 for severity, _ in self.findings if severity == "error")


def _render_mode(skin: ScoreboardSkin, mode: str, size: tuple[int, int],
                 report: SkinReport) -> None:
    ctx = build_context(None, SAMPLE_GAME, size=size)
    label = f"{mode} at {size[0]}x{size[1]}"
    started = time.perf_counter()
    try:
        answer = getattr(skin, f"render_{mode}")(ctx, dict(SAMPLE_GAME))
    except CONTAINED as err:  # the skin's failure is a finding (SystemExit too)
        report.add("error", f"{label} raised {type(err).__name__}: {err}")
        return
    elapsed = time.perf_counter() - started
    report.renders += 1
    if elapsed > RENDER_BUDGET:
        report.add("warning", f"{label} took {elapsed * 1000:.0f} ms, over the "
                              f"{RENDER_BUDGET * 1000:.0f} ms render budget")
    if answer is not True:
        report.add("warning", f"{label} returned {answer!r}: the plugin's own look shows")
    elif ctx.canvas.getbbox() is None:
        report.add("warning", f"{label} returned True but drew nothing")


def check_skin(folder: Path, sizes: tuple[tuple[int, int], ...] = CHECK_SIZES) -> SkinReport:
    """Every check on the skin in ``folder``."""
    report = SkinReport()
    if not NAME.match(folder.name):
        report.add("error", f"the folder's name {folder.name!r} is no skin name (1 to 64 of "
                            "a-z, 0-9, '-', '_', starting with a letter or digit): the panel "
                            "would never find it")
    info = read_skin(folder)
    for problem in info.problems:
        report.add("error", problem)
    if not info.ok:
        return report
    if not info.has_preview:
        report.add("warning", "preview.png is missing (the skin picker shows it)")
    try:
        skin = load_info(info, {})
    except SkinLoadError as err:
        report.add("error", str(err))
        return report
    if not isinstance(getattr(skin, "manifest", None), dict):
        report.add("error", f"{info.class_name}.__init__ does not call ScoreboardSkin's "
                            "(super().__init__(manifest, options)): the panel cannot use it")
        return report
    for mode in info.modes:
        for size in sizes:
            _render_mode(skin, mode, size, report)
    return report


def main(argv: list[str]) -> int:
    """Check the skin in ``argv[0]``; print the report as one JSON line."""
    report = check_skin(Path(argv[0]).resolve())
    print(json.dumps({"findings": report.findings, "renders": report.renders}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
