"""The src.common helpers and src.adaptive_layout are ours; feature tests by hasattr work."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import shared.plugin_api.common
import shared.plugin_api.common.adaptive_layout
import shared.plugin_api.common.api_helper
import shared.plugin_api.common.logo_helper
import shared.plugin_api.common.text_helper
from shared.plugin_api import compat
from shared.plugin_system.discovery import read_plugin
from shared.plugin_system.loader import load_plugin_class

MakePlugin = Callable[..., Path]
ROOT = Path(__file__).resolve().parents[3]

SPORTS = """
from src.common import APIHelper, LogoHelper, TextHelper
from src.common.logo_helper import LogoHelper as ModuleLogoHelper
from src.plugin_system.base_plugin import BasePlugin
import src.common

try:
    from src.adaptive_layout import LayoutContext, Region, scoreboard_regions
    ADAPTIVE_AVAILABLE = True
except ImportError:
    ADAPTIVE_AVAILABLE = False

HAS_GAME_HELPER = hasattr(src.common, "GameHelper")


class Scores(BasePlugin):
    helpers = (APIHelper, LogoHelper, TextHelper, ModuleLogoHelper)
    adaptive = ADAPTIVE_AVAILABLE
    layout = (LayoutContext, Region, scoreboard_regions)
    game_helper = HAS_GAME_HELPER

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
        ("src.common.logo_helper", shared.plugin_api.common.logo_helper),
        ("src.common.text_helper", shared.plugin_api.common.text_helper),
        ("src.common.api_helper", shared.plugin_api.common.api_helper),
        ("src.adaptive_layout", shared.plugin_api.common.adaptive_layout),
    ],
)
def test_the_helper_modules_are_our_module_objects(alias: str, ours: object) -> None:
    assert importlib.import_module(alias) is ours


def test_the_helpers_from_src_common_are_our_classes() -> None:
    from src.common import APIHelper, LayoutContext, LogoHelper, Region, TextHelper

    assert LogoHelper is shared.plugin_api.common.logo_helper.LogoHelper
    assert TextHelper is shared.plugin_api.common.text_helper.TextHelper
    assert APIHelper is shared.plugin_api.common.api_helper.APIHelper
    assert LayoutContext is shared.plugin_api.common.adaptive_layout.LayoutContext
    assert Region is shared.plugin_api.common.adaptive_layout.Region


def test_hasattr_on_an_alias_package_is_false_for_a_name_we_lack() -> None:
    import src
    import src.common

    assert hasattr(src.common, "LogoHelper") and hasattr(src, "adaptive_layout")
    assert not hasattr(src.common, "GameHelper")
    assert not hasattr(src, "no_such_module")
    assert getattr(src.common, "DisplayHelper", None) is None
    with compat.importing("scores"), pytest.raises(AttributeError) as caught:
        _ = src.common.GameHelper
    assert isinstance(caught.value, compat.NotProvided)
    assert "plugin 'scores' imports src.common.GameHelper" in str(caught.value)


def test_a_from_import_of_a_name_we_lack_still_names_module_and_plugin() -> None:
    with compat.importing("scores"), pytest.raises(ImportError) as caught:
        exec("from src.common import LogoHelper, GameHelper", {})
    assert not isinstance(caught.value, AttributeError)
    assert str(caught.value).startswith("plugin 'scores' imports src.common.GameHelper, "
                                        "which is not provided by ledpanel")
    assert caught.value.name == "src.common.GameHelper"


def test_a_sports_plugin_using_the_helpers_loads_with_ours(
    plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    directory = make_plugin(plugins_dir, "scores", class_name="Scores", code=SPORTS)
    cls = load_plugin_class(read_plugin(directory))
    assert cls.helpers == (
        shared.plugin_api.common.APIHelper, shared.plugin_api.common.LogoHelper,
        shared.plugin_api.common.TextHelper,
        shared.plugin_api.common.LogoHelper,
    )
    assert cls.adaptive is True and cls.game_helper is False
    assert cls.layout[0] is shared.plugin_api.common.adaptive_layout.LayoutContext


def test_a_plugin_that_only_scrolls_does_not_import_requests() -> None:
    code = (
        "import sys\n"
        "from shared.plugin_api import compat\n"
        "compat.install()\n"
        "from src.common.scroll_helper import ScrollHelper\n"
        "from src.common import ScrollHelper as Again\n"
        "assert 'requests' not in sys.modules, 'requests was imported'\n"
        "from src.common import APIHelper\n"
        "assert 'requests' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
