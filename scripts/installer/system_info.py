"""What the installer reads about the target system: accounts, board, memory, address."""

from __future__ import annotations

import json
from pathlib import Path

from installer.context import Context

SERVICE_USER = "ledpanel"
SERVICE_GROUP = "ledpanel"
LOW_MEMORY_KIB = 1024 * 1024  # boards with 1 GB or less build with swap and one job
DEFAULT_PORT = 5000


def _entries(ctx: Context, name: str) -> dict[str, list[str]]:
    """Return ``{name: fields}`` of the target's ``/etc/passwd`` or ``/etc/group``."""
    text = ctx.read_text(ctx.path(f"/etc/{name}")) or ""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 4 and fields[0]:
            found[fields[0]] = fields
    return found


def user_id(ctx: Context, user: str) -> int | None:
    fields = _entries(ctx, "passwd").get(user)
    return int(fields[2]) if fields and fields[2].isdigit() else None


def group_id(ctx: Context, group: str) -> int | None:
    fields = _entries(ctx, "group").get(group)
    return int(fields[2]) if fields and fields[2].isdigit() else None


def group_members(ctx: Context, group: str) -> set[str]:
    fields = _entries(ctx, "group").get(group)
    return {m for m in fields[3].split(",") if m} if fields else set()


def board_model(ctx: Context) -> str:
    """Return the board's model text ("Raspberry Pi 5 Model B Rev 1.0"), or ""."""
    raw = ctx.read_text(ctx.path("/proc/device-tree/model"))
    if raw:
        return raw.replace("\x00", "").strip()
    for line in (ctx.read_text(ctx.path("/proc/cpuinfo")) or "").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Model":
            return value.strip()
    return ""


def is_fifth_generation(model: str) -> bool:
    """The Pi 5, Pi 500 and Compute Module 5 drive their GPIO through the RP1 chip."""
    return "Raspberry Pi 5" in model or "Compute Module 5" in model


def memory_kib(ctx: Context) -> int | None:
    """Return MemTotal in KiB, or None when it cannot be read."""
    for line in (ctx.read_text(ctx.path("/proc/meminfo")) or "").splitlines():
        if line.startswith("MemTotal:"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                return int(parts[1])
    return None


def is_low_memory(ctx: Context) -> bool:
    kib = memory_kib(ctx)
    return kib is not None and kib <= LOW_MEMORY_KIB


def web_port(ctx: Context) -> int:
    """Return ``web.port`` from the installed config (or its template), else 5000."""
    for name in ("config.json", "config.template.json"):
        text = ctx.read_text(ctx.install_dir / "config" / name)
        try:
            port = json.loads(text)["web"]["port"] if text else None
        except (ValueError, KeyError, TypeError):
            port = None
        if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
            return port
    return DEFAULT_PORT


def host_address(ctx: Context) -> str:
    """Return the host's first address from ``hostname -I``, or its name."""
    done = ctx.query(["hostname", "-I"])
    addresses = done.stdout.split() if done.returncode == 0 else []
    if addresses:
        return f"[{addresses[0]}]" if ":" in addresses[0] else addresses[0]
    name = ctx.query(["hostname"]).stdout.strip()
    return f"{name}.local" if name else "<this Pi's address>"


def owner_of(path: Path) -> tuple[int, int, int] | None:
    """Return (uid, gid, mode) of ``path`` (not following a link), or None."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_uid, info.st_gid, info.st_mode
