"""The plugin safety harness: render a plugin at many panel sizes and check what it drew.

Also reachable as ``src.plugin_system.testing`` (plugins for the existing system import
it under that name). ``render_plugin`` renders one plugin at one size; ``run_harness``
renders every mode and variant at every size and applies the checks (bounds, empty
claimed, scale-up, golden images, render budget). The existing system's test surface
is here too: ``PluginTestCase``, ``VisualTestDisplayManager``, the ``Mock*`` managers,
and its ``harness`` sub-module (``render_plugin_matrix`` and checks over its results).
docs/PLUGINS.md ("Safety harness").
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
from shared.plugin_system.testing.mocks import (
    MockCacheManager,
    MockConfigManager,
    MockDisplayManager,
    MockPluginManager,
)
from shared.plugin_system.testing.plugin_case import PluginTestCase
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
from shared.plugin_system.testing.visual import VisualTestDisplayManager

__all__ = [
    "BoundsCheckingDisplayManager", "check_empty_claimed", "check_scale_up", "coerce_sizes",
    "compare_images", "compare_to_golden", "DEFAULT_TEST_SIZES", "ERROR", "fill_metrics",
    "Finding", "golden_path", "HarnessReport", "list_modes", "MockCacheManager",
    "MockConfigManager", "MockDisplayManager", "MockPluginManager", "parse_size_token",
    "plugin_modes", "PluginTestCase", "render_plugin", "RenderResult", "resolve_test_sizes",
    "run_harness", "safe_mode_filename", "size_label", "SUPPORTED_SIZES",
    "VisualTestDisplayManager", "WARNING", "write_golden",
]
