"""The plugin safety harness: render a plugin at many panel sizes and check what it drew.

Also reachable as ``src.plugin_system.testing`` (plugins for the existing system import
it under that name). ``render_plugin`` renders one plugin at one size; ``run_harness``
renders every mode and variant at every size and applies the checks (bounds, empty
claimed, scale-up, golden images, render budget). docs/PLUGINS.md ("Safety harness").
"""

from shared.plugin_system.testing.bounds import BoundsCheckingDisplayManager
from shared.plugin_system.testing.findings import ERROR, WARNING, Finding
from shared.plugin_system.testing.golden import (
    compare_images,
    compare_to_golden,
    golden_path,
    safe_mode_filename,
    write_golden,
)
from shared.plugin_system.testing.metrics import (
    check_empty_claimed,
    check_scale_up,
    fill_metrics,
)
from shared.plugin_system.testing.render import (
    RenderResult,
    list_modes,
    plugin_modes,
    render_plugin,
)
from shared.plugin_system.testing.sizes import (
    DEFAULT_TEST_SIZES,
    SUPPORTED_SIZES,
    coerce_sizes,
    parse_size_token,
    resolve_test_sizes,
    size_label,
)
from shared.plugin_system.testing.suite import HarnessReport, run_harness

__all__ = [
    "BoundsCheckingDisplayManager", "DEFAULT_TEST_SIZES", "ERROR", "Finding", "HarnessReport",
    "RenderResult", "SUPPORTED_SIZES", "WARNING", "check_empty_claimed", "check_scale_up",
    "coerce_sizes", "compare_images", "compare_to_golden", "fill_metrics", "golden_path",
    "list_modes", "parse_size_token", "plugin_modes", "render_plugin", "resolve_test_sizes",
    "run_harness", "safe_mode_filename", "size_label", "write_golden",
]
