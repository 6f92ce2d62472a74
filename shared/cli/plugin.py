"""``ledpanel plugin``: make, check, render and test a plugin without a panel.

- ``new NAME [--dir PARENT]``: a working plugin in ``PARENT/NAME`` (``plugin_scaffold``).
- ``check [DIR] [--sizes WxH,...]``: manifest and schema lint with the loader's rules,
  then the safety harness (``shared.plugin_system.testing.run_harness``) at every size;
  each finding is one line on stdout (``warning:`` or ``error:``), then a summary line.
- ``render DIR --size 64x32 --out x.png [--mode M] [--config JSON] [--frames N]``:
  the last of N frames as a PNG; findings go to stderr as ``warning:`` lines.
- ``test DIR``: the plugin's own tests under pytest, ``src.plugin_system.testing``
  importable.

Exit status as ``ledpanel apps render``: 0 with one line saying what was done, 1 with
one line naming the problem, 2 for bad usage. Plugin code runs in this process.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shared.cli.common import CliError
from shared.paths import ROOT

NO_TESTS = 5  # pytest's exit status when it collected nothing


def add_command(commands: Any) -> None:
    """Add ``plugin new|check|render|test`` to the ``ledpanel`` command's sub-commands."""
    plugin = commands.add_parser("plugin", help="make, check, render and test a plugin")
    sub = plugin.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    new = sub.add_parser("new", help="create a working plugin to start from")
    new.add_argument("name", metavar="NAME", help="plugin id: lowercase letters, digits, -")
    new.add_argument("--dir", default=".", help="folder to create it in (default: here)")
    new.set_defaults(func=cmd_plugin_new)
    check = sub.add_parser("check", help="lint a plugin and run the harness at every size")
    check.add_argument("dir", nargs="?", default=".", metavar="DIR")
    check.add_argument("--sizes", type=_sizes, default=None, metavar="WxH,...",
                       help="sizes to render (default: LEDMATRIX_TEST_SIZES, harness.json, "
                            "then the default sample)")
    check.add_argument("--update-goldens", action="store_true",
                       help="write the frames as test/golden/ instead of comparing")
    check.set_defaults(func=cmd_plugin_check)
    render = sub.add_parser("render", help="render one frame of a plugin to a PNG")
    render.add_argument("dir", metavar="DIR")
    render.add_argument("--size", type=_size, default=(64, 32), help="WxH (64x32)")
    render.add_argument("--out", required=True, help="the PNG to write")
    render.add_argument("--mode", help="display mode (default: the plugin's first)")
    render.add_argument("--config", type=_overlay, default={}, metavar="JSON",
                        help="config overlay, a JSON object")
    render.add_argument("--frames", type=_frames, default=1, help="frames to run (1)")
    render.set_defaults(func=cmd_plugin_render)
    test = sub.add_parser("test", help="run the plugin's own tests with the harness")
    test.add_argument("dir", metavar="DIR")
    test.set_defaults(func=cmd_plugin_test)


def cmd_plugin_new(args: argparse.Namespace) -> int:
    """Create the scaffold of a new plugin."""
    from shared.cli.plugin_scaffold import write_scaffold

    try:
        target = write_scaffold(Path(args.dir), args.name)
    except (ValueError, OSError) as err:
        raise CliError(str(err)) from err
    print(f"plugin {args.name} created in {target}")
    return 0


def cmd_plugin_check(args: argparse.Namespace) -> int:
    """Lint the plugin, run the harness; exit 1 when anything is an error."""
    from shared.plugin_system.testing.lint import lint_plugin
    from shared.plugin_system.testing.suite import run_harness

    directory = _plugin_dir(args.dir)
    errors, warnings = lint_plugin(directory)
    lines = [f"error: {e}" for e in errors] + [f"warning: {w}" for w in warnings]
    renders = 0
    if not errors:
        with quiet_logs():
            report = run_harness(directory, args.sizes, update_goldens=args.update_goldens)
        renders = report.renders
        lines += [f"{f.severity}: {f.message}" for f in report.findings]
    for line in lines:
        print(line)
    failed = sum(1 for line in lines if line.startswith("error:"))
    summary = (f"{directory.name}: {renders} renders, {failed} errors, "
               f"{len(lines) - failed} warnings")
    if failed:
        raise CliError(f"check failed: {summary}")
    print(f"check passed: {summary}")
    return 0


def cmd_plugin_render(args: argparse.Namespace) -> int:
    """Render the plugin and write its last frame as a PNG."""
    from shared.plugin_system.testing.render import render_plugin

    directory = _plugin_dir(args.dir)
    with quiet_logs():
        result = render_plugin(directory, args.size, args.config, args.mode, args.frames)
    if result.error_class is not None:
        reason = result.error or result.error_class
        raise CliError(reason if reason.startswith(f"{directory.name}: ")
                       else f"{directory.name}: {reason}")
    if args.mode and args.mode not in result.modes:
        raise CliError(f"{directory.name}: no mode {args.mode!r} (modes: "
                       f"{', '.join(result.modes)})")
    for finding in result.problems:
        message = finding.message
        if finding.check == "update_error" and result.update_error:
            message = f"update() raised {result.update_error}"
        print(f"warning: {message}", file=sys.stderr)
    out = Path(args.out)
    try:
        result.images[-1].save(out, format="PNG")
    except (OSError, ValueError) as err:
        raise CliError(f"cannot write {out}: {err}") from err
    width, height = args.size
    print(f"{width}x{height} frame of {directory.name} ({result.mode}) written to {out}")
    return 0


def cmd_plugin_test(args: argparse.Namespace) -> int:
    """Run the plugin's tests with pytest, the ``src.*`` names and the harness importable."""
    directory = _plugin_dir(args.dir)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "shared.plugin_system.testing.pytest_plugin",
               "--rootdir", str(directory), "-c", os.devnull, str(directory)]
    done = subprocess.run(command, cwd=directory, env=env, check=False)
    if done.returncode == NO_TESTS:
        raise CliError(f"{directory.name}: no tests found")
    if done.returncode != 0:
        raise CliError(f"{directory.name}: tests failed (pytest exit status {done.returncode})")
    print(f"{directory.name}: tests passed")
    return 0


@contextlib.contextmanager
def quiet_logs() -> Iterator[None]:
    """Keep what the loader and the plugin log off the terminal: findings and the one-line
    error say it (without a handler, Python would print warnings and tracebacks)."""
    root = logging.getLogger()
    handler = logging.NullHandler()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def _plugin_dir(text: str) -> Path:
    directory = Path(text).resolve()
    if not (directory / "manifest.json").is_file():
        raise CliError(f"{text}: no manifest.json there (not a plugin folder)")
    return directory


def _size(text: str) -> tuple[int, int]:
    from shared.plugin_system.testing.sizes import parse_size_token

    try:
        return parse_size_token(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _sizes(text: str) -> list[tuple[int, int]]:
    from shared.plugin_system.testing.sizes import coerce_sizes

    try:
        sizes = coerce_sizes(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if not sizes:
        raise argparse.ArgumentTypeError("--sizes needs at least one WxH")
    return sizes


def _overlay(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"--config is not JSON: {err}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("--config must be a JSON object")
    return value


def _frames(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a frame count from 1 to 600")
    return int(text)
