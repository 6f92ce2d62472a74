"""``ledpanel sign-in``: set the password and make, list and revoke API tokens.

These commands change the sign-in file in the config directory directly, so they work
with the web service stopped, and they are the way back in for an owner who forgot
the password (``sudo ledpanel sign-in password`` on the device).
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from shared.cli.common import CliError
from shared.errors import LedpanelError
from shared.paths import resolve_paths
from shared.sign_in.store import SCOPES, CredentialStore

T = TypeVar("T")
PERMISSION_HINT = " (the sign-in file belongs to the service user: try sudo)"


def cmd_password(args: argparse.Namespace) -> int:
    """Set the sign-in password, read twice from the terminal (once with --stdin)."""
    if args.stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = getpass.getpass("New password: ")
        if getpass.getpass("Again: ") != password:
            raise CliError("the two passwords differ; nothing was changed")
    _run(args, lambda store: store.set_password(password))
    print("password set; every browser was signed out (API tokens still work)")
    return 0


def cmd_token_create(args: argparse.Namespace) -> int:
    """Make an API token and print it (it cannot be shown again)."""
    listing, token = _run(args, lambda store: store.create_token(args.name, args.scope))
    print(token)
    print(f"token {listing['name']!r} (id {listing['id']}, scope {listing['scope']}) made; "
          "send it as "
          "'Authorization: Bearer <token>'; it is not shown again", file=sys.stderr)
    return 0


def cmd_token_list(args: argparse.Namespace) -> int:
    """List the API tokens: id, creation time, scope, name."""
    tokens = _run(args, lambda store: store.tokens())
    for token in tokens:
        made = time.strftime("%Y-%m-%d %H:%M", time.localtime(token["created_at"] or 0))
        print(f"{token['id']}  {made}  {token['scope']:<7}  {token['name']}")
    if not tokens:
        print("no API tokens", file=sys.stderr)
    return 0


def cmd_token_revoke(args: argparse.Namespace) -> int:
    """Revoke an API token by id or name."""
    revoked = _run(args, lambda store: store.revoke_token(args.token))
    print(f"token {revoked['name']!r} (id {revoked['id']}) revoked")
    return 0


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Add ``sign-in`` and its subcommands to the ``ledpanel`` parser."""
    sign_in = commands.add_parser("sign-in", help="set the sign-in password, manage API tokens")
    sub = sign_in.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--config-dir", help="directory holding config.json "
                                            "(default: $LEDPANEL_CONFIG_DIR or config/)")
    password = sub.add_parser("password", parents=[where], help="set the password")
    password.add_argument("--stdin", action="store_true",
                          help="read the password from one line of standard input")
    password.set_defaults(func=cmd_password)
    token = sub.add_parser("token", help="API tokens for scripts")
    token_sub = token.add_subparsers(dest="token_command", required=True, metavar="COMMAND")
    create = token_sub.add_parser("create", parents=[where], help="make a token, print it")
    create.add_argument("name", help="what the token is for (home-assistant, backup-script)")
    create.add_argument("--scope", required=True, choices=SCOPES,
                        help="read: look only; control: also on-demand start/stop; "
                             "admin: everything")
    create.set_defaults(func=cmd_token_create)
    token_sub.add_parser("list", parents=[where], help="list tokens").set_defaults(
        func=cmd_token_list)
    revoke = token_sub.add_parser("revoke", parents=[where], help="revoke a token")
    revoke.add_argument("token", help="the token's id (or name)")
    revoke.set_defaults(func=cmd_token_revoke)


def _run(args: argparse.Namespace, action: Callable[[CredentialStore], T]) -> T:
    store = CredentialStore(resolve_paths(config_dir=args.config_dir))
    try:
        return action(store)
    except LedpanelError as err:
        hint = PERMISSION_HINT if "ermission denied" in err.message else ""
        raise CliError(f"{err.message}{hint}") from err
