"""``run_harness``: every mode and variant of a plugin at every size, with all checks.

For each mode (``plugin_modes``), each variant of harness.json (none, then each
``variants`` entry, labelled ``mode@name``) and each size (harness.json's ``sizes``,
else ``DEFAULT_TEST_SIZES``), the plugin is rendered with ``render_plugin`` and checked:
bounds, empty-claimed and scale-up findings from the render, a failure of update() or
display() (error), a frame slower than the render budget (error) and a golden frame
that differs (error). ``update_goldens`` writes the frames as the new goldens instead of
comparing. The report fails when any finding is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.plugin_system.testing.findings import ERROR, Finding
from shared.plugin_system.testing.golden import compare_to_golden, write_golden
from shared.plugin_system.testing.render import RenderResult, render_plugin
from shared.plugin_system.testing.sizes import Size, size_label
from shared.plugin_system.testing.spec import HarnessSpec, HarnessSpecError, load_spec


@dataclass
class HarnessReport:
    """What the harness found for one plugin, and how many renders it ran."""

    findings: list[Finding] = field(default_factory=list)
    renders: int = 0
    labels: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """True when any finding is an error."""
        return any(f.severity == ERROR for f in self.findings)


def run_harness(plugin_dir: Path | str, sizes: list[Size] | None = None,
                update_goldens: bool = False) -> HarnessReport:
    """Render the plugin in ``plugin_dir`` in every mode, variant and size; check each."""
    directory = Path(plugin_dir).resolve()
    report = HarnessReport()
    try:
        spec = load_spec(directory)
    except HarnessSpecError as err:
        report.findings.append(Finding("spec", ERROR, str(err)))
        return report
    sizes = sizes or spec.sizes
    first = render_plugin(directory, sizes[0])
    if first.error_class in ("ManifestError", "PluginError"):
        report.findings.append(Finding("load", ERROR, first.error or first.error_class))
        return report
    for mode in first.modes or [""]:
        for name, overlay in [("", {}), *spec.variants.items()]:
            label = f"{mode}@{name}" if name else mode
            report.labels.append(label)
            for size in sizes:
                reuse = not name and mode == first.mode and size == sizes[0]
                result = first if reuse else render_plugin(directory, size, overlay, mode or None)
                report.renders += 1
                report.findings += _check(directory, spec, label, size, result, update_goldens)
    return report


def _check(directory: Path, spec: HarnessSpec, label: str, size: Size, result: RenderResult,
           update_goldens: bool) -> list[Finding]:
    where = f"{label} at {size_label(size)}"
    found = [_placed(f, label, size) for f in result.problems]
    if result.error_class is not None:
        found.append(Finding("crash", ERROR, f"{where}: {result.error or result.error_class}",
                             {"label": label, "size": size_label(size),
                              "error_class": result.error_class}))
    slowest = max(result.frame_seconds, default=0.0)
    if slowest > spec.render_budget_s:
        found.append(Finding("budget", ERROR, f"{where}: a frame took {slowest:.2f} s, over "
                             f"the {spec.render_budget_s:g} s render budget",
                             {"label": label, "size": size_label(size), "seconds": slowest}))
    if result.images and update_goldens:
        write_golden(directory, label, result.images[-1])
    elif result.images:
        found += compare_to_golden(directory, label, result.images[-1],
                                   spec.golden_tolerance, spec.golden_max_pixels)
    return found


def _placed(finding: Finding, label: str, size: Size) -> Finding:
    details: dict[str, Any] = {**finding.details, "label": label, "size": size_label(size)}
    message = f"{label} at {size_label(size)}: {finding.message}"
    return Finding(finding.check, finding.severity, message, details)
