"""``ledpanel apps render``: run a scripted app outside the daemons and write its frames.

``ledpanel apps render APP [KEY=VALUE ...] [--width W] [--height H] [--seconds S]
--output OUT``: APP is a ``.star`` file or an app's folder; each KEY=VALUE is one config
value as the app's settings would pass it (a string); OUT ending in ``.webp`` or ``.gif``
gets the animation, a folder (existing, or ending with ``/``) one PNG per frame. The
exit status is 0 with one line saying what was written, 1 with one line naming the
problem (the app's error included), 2 for bad usage. The app runs in a worker process
with a memory cap (``shared.starlark.isolated``), as in the display.
"""

from __future__ import annotations

import argparse
from typing import Any

from shared import cli_args
from shared.cli.common import CliError

MAX_SIDE = 512


def add_command(commands: Any) -> None:
    """Add ``apps render`` to the ``ledpanel`` command's sub-commands."""
    apps = commands.add_parser("apps", help="work with scripted (Starlark) apps")
    sub = apps.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    render = sub.add_parser("render", help="render an app to a WebP, a GIF or PNG frames")
    render.add_argument("app", metavar="APP", help="the app's .star file or its folder")
    render.add_argument("values", nargs="*", metavar="KEY=VALUE", type=_key_value,
                        help="a config value passed to the app's main(config)")
    render.add_argument("--width", type=_side, default=64, help="width in pixels (64)")
    render.add_argument("--height", type=_side, default=32, help="height in pixels (32)")
    render.add_argument("--seconds", type=cli_args.positive_seconds, default=None,
                        help="time the app may take to render (default 1.0)")
    render.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="a .webp or .gif file, or a folder for frame-0000.png ...")
    render.set_defaults(func=cmd_apps_render)


def cmd_apps_render(args: argparse.Namespace) -> int:
    """Render ``args.app`` with its config values and write the frames."""
    from shared.starlark.frames_out import OutputError, write_frames
    from shared.starlark.isolated import AppRenderer
    from shared.starlark.runtime import AppError

    renderer = AppRenderer()
    try:
        frames = renderer.render(args.app, dict(args.values), width=args.width,
                                 height=args.height, seconds=args.seconds or 1.0)
        written = write_frames(frames.images, frames.delay_ms, args.output)
    except (AppError, OutputError) as err:
        raise CliError(str(err)) from err
    finally:
        renderer.close()
    count = len(frames.images)
    where = written[0] if len(written) == 1 else written[0].parent
    print(f"{count} frame{'s' if count != 1 else ''} of {args.width}x{args.height}, "
          f"{frames.delay_ms} ms each, written to {where}")
    return 0


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key, value


def _side(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if not 1 <= value <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and {MAX_SIDE} pixels")
    return value
