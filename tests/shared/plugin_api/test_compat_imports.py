"""The ``src.*`` names of the existing plugin API resolve to our modules, and only those."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import display_service.plugins.display_manager
import shared.fonts.manager
import shared.plugin_api.base_plugin
import shared.plugin_api.cache.manager
import shared.plugin_api.common
import shared.plugin_api.common.scroll_helper
import shared.plugin_system.manager
from shared.errors import PluginError
from shared.plugin_api import compat
from shared.plugin_system.discovery import read_plugin
from shared.plugin_system.loader import load_plugin_class

MakePlugin = Callable[..., Path]
ROOT = Path(__file__).resolve().parents[3]

COMMUNITY = """
from src.plugin_system.base_plugin import BasePlugin
from src.plugin_system.plugin_manager import PluginManager
from src.common.scroll_helper import ScrollHelper
from src.common import ScrollHelper as PackageScrollHelper
from src.cache_manager import CacheManager
from src.config_manager import ConfigManager
from src.display_manager import DisplayManager
import src.font_manager


class {name}(BasePlugin):
    helper = ScrollHelper
    package_helper = PackageScrollHelper
    names = (PluginManager, CacheManager, ConfigManager, DisplayManager, src.font_manager)

    def update(self):
        pass

    def display(self, force_clear=False):
        return True
"""


@pytest.fixture(autouse=True)
def _finder() -> None:
    compat.install()


@pytest.mark.parametrize(
    ("alias", "ours"),
    [
        ("src.plugin_system.base_plugin", shared.plugin_api.base_plugin),
        ("src.plugin_system.plugin_manager", shared.plugin_system.manager),
        ("src.common.scroll_helper", shared.plugin_api.common.scroll_helper),
        ("src.cache_manager", shared.plugin_api.cache.manager),
        ("src.display_manager", display_service.plugins.display_manager),
        ("src.font_manager", shared.fonts.manager),
    ],
)
def test_a_module_alias_is_our_module_object(alias: str, ours: object) -> None:
    assert importlib.import_module(alias) is ours


def test_package_aliases_lend_out_our_objects() -> None:
    from src.common import ScrollHelper
    from src.config_manager import ConfigManager
    from src.plugin_system import base_plugin

    assert ScrollHelper is shared.plugin_api.common.ScrollHelper
    assert ConfigManager is shared.plugin_system.manager.ConfigView
    assert base_plugin is shared.plugin_api.base_plugin


def test_every_alias_in_the_table_imports() -> None:
    for name in compat.ALIASES:
        assert importlib.import_module(name).__name__, name


def test_an_unknown_src_module_names_the_module_and_the_plugin() -> None:
    with compat.importing("clock-x"), pytest.raises(ModuleNotFoundError) as caught:
        importlib.import_module("src.weather_icons")
    message = str(caught.value)
    assert "src.weather_icons" in message and "'clock-x'" in message
    assert "not provided by ledpanel" in message
    assert caught.value.name == "src.weather_icons"


def test_an_unknown_name_from_an_alias_package_is_an_import_error_naming_it() -> None:
    with compat.importing("news"), pytest.raises(ImportError) as caught:
        exec("from src.common import GameHelper", {})
    assert "src.common.GameHelper" in str(caught.value)
    assert "'news'" in str(caught.value) and "not provided by ledpanel" in str(caught.value)


def test_two_plugins_importing_src_each_load_with_our_classes(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    classes = []
    for plugin_id, name in (("clock-a", "ClockA"), ("clock-b", "ClockB")):
        directory = make_plugin(
            plugins_dir, plugin_id, class_name=name, code=COMMUNITY.format(name=name)
        )
        classes.append(load_plugin_class(read_plugin(directory)))
    for cls in classes:
        assert issubclass(cls, shared.plugin_api.base_plugin.BasePlugin)
        scroll_helper = shared.plugin_api.common.scroll_helper.ScrollHelper
        assert cls.helper is cls.package_helper is scroll_helper
    assert classes[0].names == classes[1].names


def test_a_plugin_importing_an_unprovided_src_name_fails_naming_it(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = "from src.common import GameHelper\n" + COMMUNITY.format(name="Scroller")
    directory = make_plugin(plugins_dir, "scroller", class_name="Scroller", code=code)
    with pytest.raises(PluginError) as caught:
        load_plugin_class(read_plugin(directory))
    message = str(caught.value)
    assert message.startswith("scroller: importing manager.py failed: ImportError")
    assert "plugin 'scroller' imports src.common.GameHelper" in message
    assert "not provided by ledpanel" in message


def test_a_missing_package_is_named_with_the_plugins_requirements_command(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = "import ledpanel_absent_pkg.sub\n" + COMMUNITY.format(name="Weather")
    directory = make_plugin(
        plugins_dir, "weather", class_name="Weather", code=code,
        files={"requirements.txt": "ledpanel-absent-pkg\n"},
    )
    with pytest.raises(PluginError) as caught:
        load_plugin_class(read_plugin(directory))
    assert "missing package 'ledpanel_absent_pkg'" in str(caught.value)
    assert (f"pip install --target {directory / '.ledpanel-deps'} "
            f"-r {directory / 'requirements.txt'}") in str(caught.value)
    assert "ledpanel_absent_pkg" not in sys.modules


def test_a_missing_package_without_requirements_names_pip_install(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = "import ledpanel_absent_pkg\n" + COMMUNITY.format(name="Weather")
    directory = make_plugin(plugins_dir, "weather", class_name="Weather", code=code)
    with pytest.raises(PluginError) as caught:
        load_plugin_class(read_plugin(directory))
    assert str(caught.value).endswith(
        f"install it with: pip install --target {directory / '.ledpanel-deps'} "
        "ledpanel_absent_pkg"
    )


def test_a_plugins_own_missing_module_gets_no_install_hint(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = "import sports.absent\n" + COMMUNITY.format(name="Own")
    directory = make_plugin(
        plugins_dir, "own", class_name="Own", code=code, files={"sports/__init__.py": ""}
    )
    with pytest.raises(PluginError) as caught:
        load_plugin_class(read_plugin(directory))
    assert "ModuleNotFoundError" in str(caught.value)
    assert "pip install" not in str(caught.value)


def test_a_community_manifest_loads_with_warnings_only(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    directory = make_plugin(
        plugins_dir, "clock-x", class_name="ClockX", code=COMMUNITY.format(name="ClockX"),
        manifest_overrides={
            "compatible_versions": None,
            "icon": "fas fa-clock",
            "screenshot": "screenshot.png",
            "requirements_file": "requirements.txt",
            "versions": [{"released": "2025-01-01", "version": "1.0.0", "ledmatrix_min": "2.0.0"}],
            "web_ui_actions": [{"id": "a", "type": "script", "script": "scripts/a.py",
                                "success_message": "done"}],
        },
        files={"requirements.txt": "pytz\n"},
    )
    info = read_plugin(directory)
    assert info.errors == []
    assert info.warnings == ["compatible_versions: is required"]
    assert issubclass(load_plugin_class(info), shared.plugin_api.base_plugin.BasePlugin)


def test_our_own_code_never_imports_src() -> None:
    found = subprocess.run(
        ["grep", "-rlE", r"^\s*(from|import) src(\.|\s)", "shared", "display_service",
         "web_service", "--include=*.py"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert found.stdout == ""


def test_a_star_import_from_src_common_gives_what_ours_exports() -> None:
    import shared.plugin_api.common

    compat.install()
    namespace: dict = {}
    exec("from src.common import *", namespace)  # noqa: S102 - the plugin idiom itself
    assert namespace["ScrollHelper"] is shared.plugin_api.common.ScrollHelper
    assert set(shared.plugin_api.common.__all__) <= set(namespace)
