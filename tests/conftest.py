"""Markers for the quick loop: ``browser`` (tests/browser, a real Chromium) and ``daemons``
(tests that start the real daemons as subprocesses, and every system test).

``scripts/test --quick`` runs ``-m "not browser and not daemons"``: the unit tests and the
Flask test-client tests, in a few minutes.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from types import ModuleType

import pytest

TESTS = Path(__file__).resolve().parent
# Helper modules whose functions start real daemons (or the store's loopback host beside
# them): a test module using any of them is a daemon test.
DAEMON_HELPERS = ("tests.daemons", "tests.web_service.store.ops_daemons",
                  "tests.web_service.sign_in_helpers")
DAEMON_WORDS = ("-m\", \"display_service", "\"-m\", \"web_service", "display_service.__main__",
                "web_service.__main__")


def _source(obj: object) -> str:
    try:
        return inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return ""


def _daemon_names(module: ModuleType) -> set[str]:
    """Names in ``module`` that start daemons: the helpers imported from DAEMON_HELPERS,
    then (to a fixed point) the module's own functions and classes that use one."""
    names = {name for name, value in vars(module).items()
             if getattr(value, "__module__", None) in DAEMON_HELPERS and callable(value)
             and not inspect.isclass(value)}
    own = {name: _source(value) for name, value in vars(module).items()
           if (inspect.isfunction(value) or inspect.isclass(value))
           and getattr(value, "__module__", None) == module.__name__}
    grown = True
    while grown:
        grown = False
        for name, text in own.items():
            if name not in names and _uses(text, names):
                names.add(name)
                grown = True
    return names


def _uses(text: str, names: set[str]) -> bool:
    return any(word in text for word in DAEMON_WORDS) or any(
        f"{name}(" in text for name in names)


def _starts_daemons(item: pytest.Item, names: set[str]) -> bool:
    """Whether the test, or a fixture it uses, starts the real daemons."""
    sources = [_source(getattr(item, "function", None))]
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        sources += [_source(definition.func) for definition in definitions]
    return any(_uses(text, names) for text in sources if text)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seen: dict[str, set[str]] = {}
    for item in items:
        parts = Path(str(item.path)).resolve().relative_to(TESTS.parent).parts
        if parts[:2] == ("tests", "browser"):
            item.add_marker(pytest.mark.browser)
            continue
        module = getattr(item, "module", None)
        if module is None:
            continue
        if parts[:2] == ("tests", "system"):
            item.add_marker(pytest.mark.daemons)
            continue
        if module.__name__ not in seen:
            seen[module.__name__] = _daemon_names(module)
        if _starts_daemons(item, seen[module.__name__]):
            item.add_marker(pytest.mark.daemons)



def pytest_configure(config: pytest.Config) -> None:
    """Let the store fetch from 127.0.0.1, where the tests' repository host listens, for
    the whole run (module-wide daemon fixtures too; the daemons inherit it). The store
    refuses loopback and private addresses otherwise; tests of that refusal remove the
    variable with monkeypatch."""
    os.environ["LEDPANEL_STORE_ALLOW_HOSTS"] = "127.0.0.1"


@pytest.fixture
def mqtt_broker(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A real mosquitto on a loopback port of its own, anonymous clients allowed."""
    from tests.mqtt_broker import Broker

    broker = Broker(tmp_path / "broker").start()
    yield broker
    broker.stop()
