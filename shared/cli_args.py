"""Command-line and environment input of both daemons and the ``ledpanel`` command.

Every flag and ``LEDPANEL_*`` variable is checked before anything starts: a bad value
is one line on stderr naming the flag or variable and what it must be, and exit status
2 (``UsageError``). Never a traceback, never a value silently wrapped or replaced.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

EXIT_USAGE = 2
DEFAULT_WEB_PORT = 5000
T = TypeVar("T")


class UsageError(Exception):
    """Bad input on the command line or in the environment (exit status 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``prog: problem (see prog --help)``."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def fail(prog: str, message: str) -> NoReturn:
    """Print one usage line and exit with status 2."""
    print(f"{prog}: {message}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def port(text: str) -> int:
    """Parse a TCP port, 1-65535, or 0 for "any free port" (an argparse ``type``)."""
    value = _integer(text)
    if value is None or not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"must be a port number from 1 to 65535 (or 0 for any free port), not {text!r}")
    return value


def threads(text: str) -> int:
    """Parse a request thread count, 1-64."""
    value = _integer(text)
    if value is None or not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 64, not {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """Parse a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def web_url(text: str) -> str:
    """Parse the web service's base URL: ``http(s)://host[:port]``, nothing after the port."""
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.path not in ("", "/") or parts.query or parts.fragment):
        raise argparse.ArgumentTypeError(
            f"must be the web service's address such as http://127.0.0.1:5000, not {text!r}")
    return text.strip().rstrip("/")


def log_level(text: str) -> str:
    """Parse a log level name, any case."""
    level = text.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise argparse.ArgumentTypeError(
            f"must be one of DEBUG, INFO, WARNING, ERROR, not {text!r}")
    return level


def from_env(name: str, parse: Callable[[str], T], env: Mapping[str, str] | None = None
             ) -> T | None:
    """Return ``parse(os.environ[name])``, None when unset or empty; raise UsageError."""
    raw = (os.environ if env is None else env).get(name, "")
    if raw == "":
        return None
    try:
        return parse(raw)
    except argparse.ArgumentTypeError as err:
        raise UsageError(f"{name}: {err}") from None


def check_dirs(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> None:
    """Refuse a directory flag or variable that names something other than a directory.

    A path that does not exist yet is fine: the daemons create the config and bus
    directories; a plugins directory that does not exist simply holds no plugins.
    """
    env = os.environ if env is None else env
    for flag, var in (("config_dir", "LEDPANEL_CONFIG_DIR"), ("cache_dir", "LEDPANEL_CACHE_DIR"),
                      ("plugins_dir", "LEDPANEL_PLUGINS_DIR")):
        value: Any = getattr(args, flag, None)
        source = f"--{flag.replace('_', '-')}"
        if not value:
            value, source = env.get(var), var
        if value and Path(value).expanduser().exists() and not Path(value).expanduser().is_dir():
            raise UsageError(f"{source}: {value} exists and is not a directory")


def configured_port(config: Any) -> int:
    """Return ``web.port`` of a config, ``DEFAULT_WEB_PORT`` when it is missing or unusable."""
    web = config.get("web") if isinstance(config, dict) else None
    value = web.get("port") if isinstance(web, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 65536:
        return value
    return DEFAULT_WEB_PORT


def _integer(text: str) -> int | None:
    stripped = text.strip()
    return int(stripped) if re.fullmatch(r"[+-]?[0-9]{1,10}", stripped) else None
