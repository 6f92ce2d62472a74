"""Where things live: the one place that resolves install root, config, bus and plugin dirs.

Precedence for each directory: command-line flag, then ``LEDPANEL_*`` environment
variable, then the default. Defaults are git-ignored folders under the repository, so a
checkout runs without root; on a device the systemd units point the bus at
``/var/cache/ledpanel`` (systemd's ``CacheDirectory=`` exports ``CACHE_DIRECTORY``).

The runtime folder holds what a daemon rewrites all the time and a crash must leave
behind, but a reboot may forget (the display's call trail): it is a tmpfs, so those
writes never reach the SD card. ``LEDPANEL_RUNTIME_DIR``, then systemd's
``RuntimeDirectory=`` (``RUNTIME_DIRECTORY``), then ``$XDG_RUNTIME_DIR/ledpanel``, then
``/dev/shm/ledpanel-<uid>``; the cache folder only where none of them exists.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from shared.errors import CacheDirError

ROOT = Path(__file__).resolve().parent.parent
DEVICE_CACHE_DIR = Path("/var/cache/ledpanel")
DEFAULT_PLUGINS_DIRECTORY = "plugin-repos"
DEV_PLUGINS_DIRECTORY = "plugins"
TEMPLATE_FILE = ROOT / "config" / "config.template.json"
SHARED_MEMORY = Path("/dev/shm")


@dataclass(frozen=True)
class Paths:
    """Resolved directories of one running instance."""

    root: Path
    config_dir: Path
    cache_dir: Path
    plugins_dir_override: Path | None = None
    assets_dir_override: Path | None = None
    runtime_dir_override: Path | None = None

    @property
    def runtime_dir(self) -> Path:
        """A tmpfs folder for files rewritten while running (module docstring)."""
        return self.runtime_dir_override or default_runtime_dir() or self.cache_dir

    @property
    def assets_dir(self) -> Path:
        """Files users upload for plugins: ``<assets>/plugins/<plugin_id>/uploads/``."""
        return self.assets_dir_override or self.root / "assets"

    @property
    def fonts_upload_dir(self) -> Path:
        """Fonts users upload (``POST /api/v3/fonts/upload``): ``<assets>/fonts_uploaded/``."""
        return self.assets_dir / "fonts_uploaded"  # shared.upload_budget.FONTS_FOLDER

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.json"

    @property
    def secrets_file(self) -> Path:
        return self.config_dir / "config_secrets.json"

    @property
    def backups_dir(self) -> Path:
        return self.config_dir / "backups"

    @property
    def lock_file(self) -> Path:
        return self.config_dir / ".config.lock"

    @property
    def template_file(self) -> Path:
        return TEMPLATE_FILE

    @property
    def wifi_config_file(self) -> Path:
        return self.config_dir / "wifi_config.json"

    @property
    def dev_plugins_dir(self) -> Path:
        """The development-symlink directory ``plugins/`` (schema lookup, store)."""
        return self.root / DEV_PLUGINS_DIRECTORY

    def plugins_dir(self, configured: str | None = None) -> Path:
        """The directory plugins are discovered in.

        ``configured`` is ``plugin_system.plugins_directory`` from the config; a flag or
        ``LEDPANEL_PLUGINS_DIR`` outranks it. Relative names resolve against the root.
        """
        if self.plugins_dir_override is not None:
            return self.plugins_dir_override
        path = Path(configured or DEFAULT_PLUGINS_DIRECTORY)
        return path if path.is_absolute() else self.root / path


def resolve_paths(
    *,
    config_dir: str | os.PathLike[str] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    plugins_dir: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    root: Path = ROOT,
) -> Paths:
    """Resolve every directory from flags, then environment, then defaults."""
    env = os.environ if env is None else env

    def pick(flag: object, var: str) -> Path | None:
        value = flag if flag not in (None, "") else env.get(var) or None
        return Path(str(value)).expanduser().resolve() if value else None

    cache = pick(cache_dir, "LEDPANEL_CACHE_DIR") or pick(None, "CACHE_DIRECTORY")
    runtime = pick(None, "LEDPANEL_RUNTIME_DIR") or pick(None, "RUNTIME_DIRECTORY")
    return Paths(
        root=root,
        config_dir=pick(config_dir, "LEDPANEL_CONFIG_DIR") or root / "config",
        cache_dir=cache or root / "var" / "cache",
        plugins_dir_override=pick(plugins_dir, "LEDPANEL_PLUGINS_DIR"),
        assets_dir_override=pick(None, "LEDPANEL_ASSETS_DIR"),
        runtime_dir_override=runtime,
    )


def default_runtime_dir(env: Mapping[str, str] | None = None) -> Path | None:
    """Return ``$XDG_RUNTIME_DIR/ledpanel`` or ``/dev/shm/ledpanel-<uid>`` (made if need
    be), or None when neither is a folder only this user can write."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_RUNTIME_DIR")
    candidates = [Path(xdg) / "ledpanel"] if xdg and Path(xdg).is_absolute() else []
    candidates.append(SHARED_MEMORY / f"ledpanel-{os.geteuid()}")
    for path in candidates:
        if not path.parent.is_dir():
            continue
        try:
            path.mkdir(mode=0o700, exist_ok=True)
            info = os.lstat(path)
        except OSError:
            continue
        # In a folder every user writes (/dev/shm), someone else may have made it first.
        if (stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
                and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
            return path
    return None


def export_dirs(paths: Paths, plugins_dir: Path) -> None:
    """Name a daemon's directories in its own environment (``LEDPANEL_*``).

    Code running in the daemon that resolves paths by itself (the logo downloads plugins
    call) and programs the daemon starts then use the directories the daemon was given
    by flags or config, not the defaults.
    """
    os.environ["LEDPANEL_CONFIG_DIR"] = str(paths.config_dir)
    os.environ["LEDPANEL_CACHE_DIR"] = str(paths.cache_dir)
    os.environ["LEDPANEL_PLUGINS_DIR"] = str(plugins_dir)
    os.environ["LEDPANEL_ASSETS_DIR"] = str(paths.assets_dir)


def ensure_writable_dir(path: Path, what: str = "cache directory") -> Path:
    """Create ``path`` if needed and prove it writable, or raise CacheDirError.

    There is deliberately no fallback location: a daemon that cannot use the bus
    directory it was given must say so and stop, not talk to nobody.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CacheDirError(f"{what} {path} cannot be created: {err.strerror or err}") from err
    if not os.access(path, os.W_OK | os.X_OK):
        raise CacheDirError(f"{what} {path} is not writable by uid {os.geteuid()}")
    probe = path / f".probe-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise CacheDirError(f"{what} {path} is not writable: {err.strerror or err}") from err
    return path
