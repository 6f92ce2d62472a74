"""A CPU quota and a memory limit for benchmark subprocesses: a cgroup made for the run.

``limited(name, quota_us, period_us, memory_bytes)`` creates a child cgroup (v2 when
``/sys/fs/cgroup/cgroup.controllers`` exists, else v1's ``cpu`` and ``memory``
hierarchies, each under the cgroup this process is in) with ``cpu.max`` /
``cpu.cfs_quota_us`` + ``cpu.cfs_period_us`` (a quota of 0 or less: none, for a
baseline) and ``memory.max`` /
``memory.limit_in_bytes``, and yields a ``Limit`` whose ``wrap(argv)`` prefixes a command
with a ``sh`` that writes its own pid to the group's ``cgroup.procs`` and then ``exec``s
the command: the process is limited from its first instruction (imports included).
Afterwards, processes still in the group are moved back to the parent and the group is
removed. Needs root; ``LimitUnavailable`` says why when cgroups cannot be used.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


class LimitUnavailable(RuntimeError):
    """Cgroups cannot be used here (not root, not mounted, controller missing)."""


@dataclass
class Limit:
    """The directories of one limit's cgroup (one for v2, one per controller for v1)."""

    directories: list[Path] = field(default_factory=list)
    version: int = 2

    def wrap(self, argv: list[str]) -> list[str]:
        """Return ``argv`` run by a shell that joins the group first (then ``exec``s)."""
        joins = "; ".join(f"echo $$ > '{d / 'cgroup.procs'}'" for d in self.directories)
        return ["/bin/sh", "-c", f'{joins}; exec "$@"', "sh", *argv]

    def throttled(self) -> tuple[int, float]:
        """Return the periods throttled so far and the seconds throttled (CPU group)."""
        stat = (self.directories[0] / "cpu.stat").read_text().split()
        fields = dict(zip(stat[::2], stat[1::2], strict=False))
        if "throttled_usec" in fields:
            return int(fields["nr_throttled"]), int(fields["throttled_usec"]) / 1e6
        return int(fields.get("nr_throttled", 0)), int(fields.get("throttled_time", 0)) / 1e9


def _own_path(controller: str) -> str:
    """Return this process's cgroup path for a v1 ``controller`` (or v2 when '')."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _number, controllers, path = line.split(":", 2)
        if controller in controllers.split(",") or (not controller and not controllers):
            return path.lstrip("/")
    raise LimitUnavailable(f"this process is in no {controller or 'v2'} cgroup")


def _make(root: Path, controller: str, name: str) -> Path:
    directory = root / _own_path(controller) / name
    try:
        directory.mkdir()
    except OSError as err:
        raise LimitUnavailable(f"cannot create {directory}: {err}") from err
    return directory


def _v2(name: str, quota_us: int, period_us: int, memory: int) -> Limit:
    controllers = (CGROUP / "cgroup.controllers").read_text().split()
    if not {"cpu", "memory"} <= set(controllers):
        raise LimitUnavailable(f"cgroup v2 without the cpu and memory controllers: {controllers}")
    directory = _make(CGROUP, "", name)
    limit = Limit([directory], 2)
    (directory / "cpu.max").write_text(f"{quota_us if quota_us > 0 else 'max'} {period_us}")
    (directory / "memory.max").write_text(str(memory))
    return limit


def _v1(name: str, quota_us: int, period_us: int, memory: int) -> Limit:
    if not (CGROUP / "cpu" / "cpu.cfs_quota_us").exists() or not (CGROUP / "memory").is_dir():
        raise LimitUnavailable("no cgroup v1 cpu and memory hierarchies under /sys/fs/cgroup")
    cpu = _make(CGROUP / "cpu", "cpu", name)
    limit = Limit([cpu], 1)
    try:
        limit.directories.append(_make(CGROUP / "memory", "memory", name))
        (cpu / "cpu.cfs_period_us").write_text(str(period_us))
        (cpu / "cpu.cfs_quota_us").write_text(str(quota_us if quota_us > 0 else -1))
        (limit.directories[1] / "memory.limit_in_bytes").write_text(str(memory))
    except BaseException:
        _remove(limit)
        raise
    return limit


def _remove(limit: Limit) -> None:
    """Move what is left in each group to its parent, then remove the group."""
    for directory in limit.directories:
        procs = directory / "cgroup.procs"
        with suppress(OSError):
            for pid in procs.read_text().split():
                with suppress(OSError):  # gone meanwhile
                    (directory.parent / "cgroup.procs").write_text(pid)
        with suppress(OSError):
            directory.rmdir()


@contextmanager
def limited(name: str, quota_us: int, period_us: int, memory_bytes: int) -> Iterator[Limit]:
    """Create the cgroup ``name`` with the CPU quota and memory limit; remove it after."""
    if os.geteuid() != 0:
        raise LimitUnavailable("cgroups need root: run the benchmark as root")
    unique = f"{name}-{os.getpid()}"
    make = _v2 if (CGROUP / "cgroup.controllers").exists() else _v1
    limit = make(unique, quota_us, period_us, memory_bytes)
    try:
        yield limit
    finally:
        _remove(limit)
