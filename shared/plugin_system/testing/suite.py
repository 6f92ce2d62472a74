"""``run_harness``: every mode and variant of a plugin at every size, with all checks.

For each mode (``plugin_modes``), each variant of harness.json (none, then each
``variants`` entry, labelled ``mode@name``, with its own golden folder) and each size
(harness.json's ``sizes``, else ``DEFAULT_TEST_SIZES``), the plugin is rendered with
``render_plugin`` (harness.json's ``config`` under the variant's) and checked:
update, bounds, empty-claimed and scale-up findings from the render, a failure of
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
from shared.plugin_system.testing.sizes import Size, label_of
from shared.plugin_system.testing.spec import GOLDEN_DIR, HarnessSpec, HarnessSpecError, load_spec


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
    first = render_plugin(directory, sizes[0], spec.config, run_update=not spec.skip_update)
    if first.error_class in ("ManifestError", "PluginError"):
        report.findings.append(Finding("load", ERROR, first.error or first.error_class))
        return report
    runs: list[tuple[str, dict[str, Any], Path]] = [("", {}, spec_dir(directory, GOLDEN_DIR))] + [
        (v.name, v.config, spec_dir(directory, v.golden_dir)) for v in spec.variants]
    for mode in first.modes or [""]:
        for name, overlay, golden_dir in runs:
            label = f"{mode}@{name}" if name else mode
            report.labels.append(label)
            for size in sizes:
                if not name and mode == first.mode and size == sizes[0]:
                    result = first
                else:
                    result = render_plugin(directory, size, {**spec.config, **overlay},
                                           mode or None, run_update=not spec.skip_update)
                report.renders += 1
                report.findings += _check(spec, (label, mode, size), golden_dir, result,
                                          update_goldens)
    return report


def spec_dir(directory: Path, relative: str) -> Path:
    """Return a golden folder of the plugin from its relative name."""
    return directory / relative


def _check(spec: HarnessSpec, run: tuple[str, str, Size], golden_dir: Path,
           result: RenderResult, update_goldens: bool) -> list[Finding]:
    label, mode, size = run
    where = f"{label} at {label_of(size)}"
    found = [_placed(_with_text(f, result), label, size) for f in result.problems]
    if result.error_class is not None:
        found.append(Finding("crash", ERROR, f"{where}: {result.error or result.error_class}",
                             {"label": label, "size": label_of(size),
                              "error_class": result.error_class}))
    slowest = max(result.frame_seconds, default=0.0)
    if slowest > spec.render_budget_s:
        found.append(Finding("budget", ERROR, f"{where}: a frame took {slowest:.2f} s, over "
                             f"the {spec.render_budget_s:g} s render budget",
                             {"label": label, "size": label_of(size), "seconds": slowest}))
    if result.images and update_goldens:
        write_golden(golden_dir, mode, result.images[-1])
    elif result.images:
        found += [_placed(f, label, size) for f in compare_to_golden(
            golden_dir, mode, result.images[-1], spec.golden_tolerance,
            spec.golden_max_pixels)]
    return found


def _with_text(finding: Finding, result: RenderResult) -> Finding:
    """An update failure with its exception text: the report is for the author."""
    if finding.check != "update_error" or not result.update_error:
        return finding
    return Finding(finding.check, finding.severity, f"update() raised {result.update_error}",
                   finding.details)


def _placed(finding: Finding, label: str, size: Size) -> Finding:
    details: dict[str, Any] = {**finding.details, "label": label, "size": label_of(size)}
    message = f"{label} at {label_of(size)}: {finding.message}"
    return Finding(finding.check, finding.severity, message, details)
