"""Loader rules: class lookup, isolation of same-named modules, modes, core version, fonts."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.errors import PluginError
from shared.plugin_system.core_version import check_core_version
from shared.plugin_system.discovery import PluginInfo, read_plugin
from shared.plugin_system.loader import effective_modes, load_plugin_class, package_name

MakePlugin = Callable[..., Path]

HELPER_USER = """
from shared.plugin_api.base_plugin import BasePlugin
from helpers import VALUE as ABSOLUTE
from .helpers import VALUE as RELATIVE
import helpers as helpers_module
from . import helpers as relative_module
from lib.util import NAME as LIB_NAME


class HelperPlugin(BasePlugin):
    absolute = ABSOLUTE
    relative = RELATIVE
    same_module = helpers_module is relative_module
    lib_name = LIB_NAME

    def update(self):
        pass

    def display(self, force_clear=False):
        return True
"""


def info_for(plugin_dir: Path) -> PluginInfo:
    return read_plugin(plugin_dir)


def helper_plugin(make_plugin: MakePlugin, directory: Path, plugin_id: str) -> Path:
    return make_plugin(
        directory, plugin_id, class_name="HelperPlugin", code=HELPER_USER,
        files={
            "helpers.py": f"VALUE = {plugin_id!r}\n",
            "lib/__init__.py": "",
            "lib/util.py": "from helpers import VALUE\nNAME = 'lib-' + VALUE\n",
        },
    )


def test_loads_the_declared_class(tmp_path: Path, make_plugin: MakePlugin) -> None:
    cls = load_plugin_class(info_for(make_plugin(tmp_path, "alpha", class_name="AlphaPlugin")))
    assert cls.__name__ == "AlphaPlugin"
    assert cls.__module__ == f"{package_name('alpha')}.manager"


def test_class_name_differing_in_case_raises_and_lists_defined_classes(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    plugin_dir = make_plugin(tmp_path, "weather", class_name="WeatherPlugin",
                             manifest_overrides={"class_name": "weatherplugin"})
    with pytest.raises(PluginError) as caught:
        load_plugin_class(info_for(plugin_dir))
    assert caught.value.message == (
        "weather: class 'weatherplugin' not found in manager.py (class names are "
        "case-sensitive); it defines: WeatherPlugin"
    )


def test_missing_class_raises_and_lists_defined_classes(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    code = """
    from shared.plugin_api.base_plugin import BasePlugin

    class Helper:
        pass

    class RealPlugin(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False):
            return True
    """
    plugin_dir = make_plugin(tmp_path, "beta", code=code, manifest_overrides={
        "class_name": "OtherPlugin"})
    with pytest.raises(PluginError) as caught:
        load_plugin_class(info_for(plugin_dir))
    assert caught.value.message == (
        "beta: class 'OtherPlugin' not found in manager.py; it defines: Helper, RealPlugin"
    )


def test_import_error_names_type_and_message_without_traceback(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    plugin_dir = make_plugin(tmp_path, "broken", code="import not_a_real_module_xyz\n")
    with pytest.raises(PluginError) as caught:
        load_plugin_class(info_for(plugin_dir))
    assert caught.value.message == (
        "broken: importing manager.py failed: ModuleNotFoundError: "
        "No module named 'not_a_real_module_xyz'; missing package 'not_a_real_module_xyz' "
        "(not installed at load): install it with: pip install --target "
        f"{plugin_dir / '.ledpanel-deps'} not_a_real_module_xyz"
    )
    assert "Traceback" not in caught.value.message
    assert isinstance(caught.value.__cause__, ModuleNotFoundError)
    assert package_name("broken") not in sys.modules


def test_syntax_error_is_a_plugin_error(tmp_path: Path, make_plugin: MakePlugin) -> None:
    plugin_dir = make_plugin(tmp_path, "syntax", code="def broken(:\n")
    with pytest.raises(PluginError, match="SyntaxError"):
        load_plugin_class(info_for(plugin_dir))


def test_same_named_helper_modules_stay_separate(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    first = load_plugin_class(info_for(helper_plugin(make_plugin, tmp_path, "first")))
    second = load_plugin_class(info_for(helper_plugin(make_plugin, tmp_path, "second")))

    assert (first.absolute, first.relative, first.lib_name) == ("first", "first", "lib-first")
    assert (second.absolute, second.relative, second.lib_name) == (
        "second", "second", "lib-second")
    assert first.same_module and second.same_module
    assert "helpers" not in sys.modules
    assert "lib" not in sys.modules


def test_a_module_cached_under_a_local_name_is_set_aside_and_restored(
    tmp_path: Path, make_plugin: MakePlugin
) -> None:
    outsider = type(sys)("helpers")
    sys.modules["helpers"] = outsider
    try:
        cls = load_plugin_class(info_for(helper_plugin(make_plugin, tmp_path, "gamma")))
        assert cls.absolute == "gamma"
        assert sys.modules["helpers"] is outsider
    finally:
        sys.modules.pop("helpers", None)


def test_package_init_and_relative_imports_work(tmp_path: Path, make_plugin: MakePlugin) -> None:
    code = """
    from . import PACKAGE_FLAG
    from ._impl import ImplPlugin as PackagedPlugin
    """
    impl = """
    from shared.plugin_api.base_plugin import BasePlugin

    class ImplPlugin(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False):
            return True
    """
    plugin_dir = make_plugin(tmp_path, "packaged", class_name="PackagedPlugin", code=code,
                             files={"__init__.py": "PACKAGE_FLAG = True\n", "_impl.py": impl})
    assert load_plugin_class(info_for(plugin_dir)).__name__ == "ImplPlugin"


def test_reloading_reads_the_files_again(tmp_path: Path, make_plugin: MakePlugin) -> None:
    plugin_dir = helper_plugin(make_plugin, tmp_path, "fresh")
    assert load_plugin_class(info_for(plugin_dir)).absolute == "fresh"
    (plugin_dir / "helpers.py").write_text("VALUE = 'changed'\n", encoding="utf-8")
    assert load_plugin_class(info_for(plugin_dir)).absolute == "changed"


def test_ids_that_are_not_identifiers_get_distinct_packages() -> None:
    names = {package_name(i) for i in ("a-b", "a_b", "a.b", "1abc")}
    assert len(names) == 4
    assert all(name.replace(".", "").replace("_", "").isalnum() for name in names)


class WithModes:
    plugin_id = "multi"
    modes = ["multi-live"]


class WithoutModes:
    plugin_id = "multi"


def test_instance_modes_outrank_manifest_display_modes() -> None:
    manifest = {"id": "multi", "display_modes": ["multi-live", "multi-recent"]}
    assert effective_modes(WithModes(), manifest) == ["multi-live"]
    assert effective_modes(WithoutModes(), manifest) == ["multi-live", "multi-recent"]
    assert effective_modes(WithoutModes(), {"id": "multi"}) == ["multi"]


def newer_core_manifest() -> dict[str, object]:
    return {
        "version": "1.0.0",
        "min_core_version": "99.0.0",
        "requires": {"core": ">=98.0.0", "ledmatrix_min": "97.0.0"},
        "versions": [
            {"released": "2024-01-01", "version": "1.0.0", "ledmatrix_min": "99.1.0"},
            {"released": "2023-01-01", "version": "0.9.0", "core_min_version": "200.0.0"},
        ],
    }


def test_newer_minimum_core_version_logs_one_warning_and_still_loads(
    tmp_path: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LEDPANEL_CORE_VERSION_STALE", raising=False)
    plugin_dir = make_plugin(tmp_path, "future", manifest_overrides=newer_core_manifest())

    with caplog.at_level(logging.WARNING):
        cls = load_plugin_class(info_for(plugin_dir))

    assert cls.__name__ == "DemoPlugin"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].getMessage().startswith(
        "future: declares minimum core version 99.1.0 (versions[0].ledmatrix_min)"
    )


@pytest.mark.parametrize(
    ("core", "env"),
    [("3.8.0", {"LEDPANEL_CORE_VERSION_STALE": "1"}), ("0.0.0", {}), ("unknown", {})],
)
def test_core_version_check_is_skipped_when_the_core_version_is_stale(
    core: str, env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert check_core_version(newer_core_manifest(), "future", core, env) is None
    assert caplog.records == []


def test_minimums_at_or_below_the_core_and_upper_bounds_do_not_warn() -> None:
    manifest = {"min_core_version": "3.8.0", "requires": {"core": "<99.0.0"}}
    assert check_core_version(manifest, "ok", "3.8.0", {}) is None
    assert check_core_version({"requires": {"core": "^3.9"}}, "x", "3.8.0", {}) is not None


def test_fonts_block_is_ignored(tmp_path: Path, make_plugin: MakePlugin) -> None:
    fonts = {"regular": {"family": "missing", "file": "fonts/none.bdf"}, "sizes": "bogus"}
    plugin_dir = make_plugin(tmp_path, "fonty", manifest_overrides={"fonts": fonts})
    info = info_for(plugin_dir)

    assert info.errors == [] and info.warnings == []
    assert load_plugin_class(info).__name__ == "DemoPlugin"


DEPS_USER = """
from shared.plugin_api.base_plugin import BasePlugin
import requests
import only_in_deps_xyz


class DepsPlugin(BasePlugin):
    dep_value = only_in_deps_xyz.VALUE
    requests_file = requests.__file__

    def update(self):
        pass

    def display(self, force_clear=False):
        return True
"""


def test_a_plugins_dependency_folder_is_appended_to_the_path_when_it_loads(
    tmp_path: Path, make_plugin: MakePlugin, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    plugin_dir = make_plugin(tmp_path, "deps", class_name="DepsPlugin", code=DEPS_USER, files={
        ".ledpanel-deps/only_in_deps_xyz.py": "VALUE = 'from the deps folder'\n",
        # a plugin's copy of a core package never shadows the core's
        ".ledpanel-deps/requests/__init__.py": "raise ImportError('the plugin copy ran')\n",
    })
    deps = str(plugin_dir.resolve() / ".ledpanel-deps")
    assert deps not in sys.path
    try:
        cls = load_plugin_class(info_for(plugin_dir))
        assert cls.dep_value == "from the deps folder"
        assert not cls.requests_file.startswith(deps)
        assert sys.path[-1] == deps and sys.path.count(deps) == 1
        load_plugin_class(info_for(plugin_dir))
        assert sys.path.count(deps) == 1
    finally:
        sys.modules.pop("only_in_deps_xyz", None)


def test_a_linked_dependency_folder_is_not_put_on_the_path(
    tmp_path: Path, make_plugin: MakePlugin, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    plugin_dir = make_plugin(tmp_path, "linked", class_name="LinkedPlugin")
    (plugin_dir / ".ledpanel-deps").symlink_to(elsewhere, target_is_directory=True)
    load_plugin_class(info_for(plugin_dir))
    assert str(plugin_dir / ".ledpanel-deps") not in sys.path
    assert str(elsewhere) not in sys.path
