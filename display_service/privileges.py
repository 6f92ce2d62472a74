"""Give up root once the panel is open, so no plugin ever runs as root.

The matrix library needs root only to map the GPIO and start its refresh thread; both
are done when the backend is open. Right after that, and before the first plugin is
imported, ``drop_root`` switches the whole process (every thread) to the user
``LEDPANEL_DISPLAY_USER`` (default ``ledpanel``): its own groups instead of root's, its
group, its user, each as real, effective and saved id, then ``no_new_privs`` so no
setuid program (sudo, which the ``ledpanel`` user may use for the web's system actions)
gives a plugin root back. ``HOME``, ``USER`` and ``LOGNAME`` follow, so a plugin's
``~`` is that user's.

The matrix library's own ``drop_privileges`` option stays off: it changes only the
group and user (root's supplementary groups stay), reports a failure only on stderr, and
bindings older than ``drop_priv_user`` can drop to ``daemon`` alone.

Not dropped, and said in the ``privileges`` block of ``hardware_status``: a daemon not
started as root (a development run: nothing to drop), a user that does not exist,
``LEDPANEL_DISPLAY_USER=root`` (kept on purpose), or a call the system refused.

What depended on root afterwards is handled where it is: the hang watch cannot start
the daemon afresh in place (``exec`` would run as the dropped user, who cannot open the
panel), so after a drop it exits with ``EXIT_RESTART`` and systemd starts it again
(``Restart=on-failure``); the bus and cache files stay writable through the group
``ledpanel`` (the unit's ``Group=``, ``UMask=0002`` and setgid cache directory); the call
trail stays mapped in memory, written without reopening its file.
"""

from __future__ import annotations

import ctypes
import logging
import os
import pwd
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

DEFAULT_USER = "ledpanel"
USER_VARIABLE = "LEDPANEL_DISPLAY_USER"
EXIT_RESTART = 75  # EX_TEMPFAIL: start me again (the unit restarts on failure)
PR_SET_NO_NEW_PRIVS = 38

_dropped_to: str | None = None  # the user this process switched to, once it has


def _no_new_privs() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@dataclass
class SystemCalls:
    """The calls a drop makes; tests replace them (a test cannot be root to drop)."""

    geteuid: Callable[[], int] = os.geteuid
    getpwnam: Callable[[str], Any] = pwd.getpwnam
    getpwuid: Callable[[int], Any] = pwd.getpwuid
    getgrouplist: Callable[[str, int], list[int]] = os.getgrouplist
    setgroups: Callable[[list[int]], None] = os.setgroups
    setresgid: Callable[[int, int, int], None] = os.setresgid
    setresuid: Callable[[int, int, int], None] = os.setresuid
    getresgid: Callable[[], tuple[int, int, int]] = os.getresgid
    getresuid: Callable[[], tuple[int, int, int]] = os.getresuid
    no_new_privs: Callable[[], None] = _no_new_privs
    environ: MutableMapping[str, str] = field(default_factory=lambda: os.environ)


SYSTEM = SystemCalls()


def target_user(environ: MutableMapping[str, str] | None = None) -> str:
    """Return the user to run plugins as (``LEDPANEL_DISPLAY_USER``, else ``ledpanel``)."""
    return ((os.environ if environ is None else environ).get(USER_VARIABLE) or "").strip() \
        or DEFAULT_USER


def dropped_to() -> str | None:
    """Return the user this process dropped root to, None while it has not."""
    return _dropped_to


def _kept(user: str, reason: str) -> dict[str, Any]:
    return {"dropped": False, "user": user, "reason": reason}


def drop_root(user: str | None = None, calls: SystemCalls | None = None) -> dict[str, Any]:
    """Switch to ``user`` when running as root; return the ``privileges`` status block:
    ``dropped``, ``user`` (whom plugins run as), ``reason`` (why not dropped, or what a
    drop lacks) and ``summary`` (one line)."""
    calls = calls or SYSTEM
    block = _switch(user or target_user(calls.environ), calls)
    block["summary"] = describe(block)
    return block


def _switch(user: str, calls: SystemCalls) -> dict[str, Any]:
    global _dropped_to
    if calls.geteuid() != 0:
        name = _name_of(calls, calls.geteuid())
        return _kept(name, f"not started as root: plugins run as {name}, nothing to drop")
    if user == "root":
        return _kept("root", f"{USER_VARIABLE}=root keeps root: plugins run as root")
    try:
        account = calls.getpwnam(user)
    except KeyError:
        return _kept("root", f"user {user!r} does not exist, so plugins run as root; create "
                             f"it (scripts/install does) or name another in {USER_VARIABLE}")
    uid, gid = int(account.pw_uid), int(account.pw_gid)
    if uid == 0:
        return _kept("root", f"user {user!r} is root (uid 0): plugins run as root")
    try:
        calls.setgroups(sorted(set(calls.getgrouplist(user, gid))))
        calls.setresgid(gid, gid, gid)
        calls.setresuid(uid, uid, uid)
    except OSError as err:
        return _kept(_name_of(calls, calls.geteuid()),
                     f"switching to user {user!r} failed ({err.strerror or err}): "
                     "plugins run as root")
    if calls.getresuid() != (uid, uid, uid) or calls.getresgid() != (gid, gid, gid):
        return _kept(_name_of(calls, calls.geteuid()),
                     f"switching to user {user!r} did not hold: plugins run as root")
    _dropped_to = user
    calls.environ.update(HOME=str(account.pw_dir), USER=user, LOGNAME=user)
    block: dict[str, Any] = {"dropped": True, "user": user, "reason": None}
    try:
        calls.no_new_privs()
    except OSError as err:  # a kernel before 3.5: setuid programs could still lift it
        block["reason"] = f"no_new_privs refused ({err.strerror or err})"
    return block


def _name_of(calls: SystemCalls, uid: int) -> str:
    try:
        return str(calls.getpwuid(uid).pw_name)
    except KeyError:
        return f"uid {uid}"


def describe(block: dict[str, Any]) -> str:
    """Return one line saying whom plugins run as."""
    if block.get("dropped"):
        text = f"plugins run as {block.get('user')} (root dropped after the panel opened)"
        return text + (f"; {block['reason']}" if block.get("reason") else "")
    return str(block.get("reason") or f"plugins run as {block.get('user')}")


def log(block: dict[str, Any]) -> None:
    """Log whom plugins run as: a warning when that is root or the drop is incomplete."""
    worrying = block.get("user") == "root" or (block.get("dropped") and block.get("reason"))
    logger.log(logging.WARNING if worrying else logging.INFO, "%s",
               describe(block))
