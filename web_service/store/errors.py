"""The plugin store's one error type: a message for the user and a stable error code.

Codes (the route layer maps them to HTTP statuses; ``status`` is a sensible default):

- ``BAD_REPO_URL``: not an http(s) repository URL of the form ``host/owner/name``.
- ``HOST_REFUSED``: a destination that is not a public host, and that the operator did
  not allow in ``LEDPANEL_STORE_ALLOW_HOSTS`` (``web_service.store.destinations``).
- ``DOWNLOAD_FAILED``: the host did not give the plugin's files (names the file).
- ``RATE_LIMITED``: the host's API quota is used up and no fallback could help.
- ``BAD_PLUGIN``: the download is not a plugin the store accepts (manifest, class).
- ``INCOMPATIBLE``: the plugin declares a core version range that excludes ours.
- ``NOT_A_ZIP``: an uploaded plugin that is not a readable ZIP archive.
- ``TOO_LARGE``: more files or bytes than the store's limits.
- ``UNSAFE_ARCHIVE``: a path escape, absolute path, symlink or device in the download.
- ``UNSAFE_REQUIREMENTS``: requirements.txt holds a line that is not a plain requirement
  (a pip option, a URL, a file path), or a required package ships a ``.pth`` file.
- ``DEPENDENCIES_FAILED``: installing requirements.txt failed, or it conflicts with the
  core's pinned packages; rolled back.
- ``NOT_INSTALLED``: uninstall or update of a plugin that is not there.
- ``BUSY``: another install or uninstall of the same plugin holds its lock.
- ``INVALID_PLUGIN_ID``: an id that is not one plain path segment.
- ``LOCAL_CHECKOUT``: the plugins dir holds a development link or git checkout of that
  id; the store never replaces one.
"""

from __future__ import annotations

from typing import Any

from shared.errors import LedpanelError

_STATUS = {
    "BAD_REPO_URL": 400,
    "INVALID_PLUGIN_ID": 400,
    "HOST_REFUSED": 400,
    "NOT_A_ZIP": 400,
    "BAD_PLUGIN": 422,
    "INCOMPATIBLE": 422,
    "TOO_LARGE": 422,
    "UNSAFE_ARCHIVE": 422,
    "UNSAFE_REQUIREMENTS": 422,
    "DEPENDENCIES_FAILED": 500,
    "DOWNLOAD_FAILED": 502,
    "RATE_LIMITED": 503,
    "NOT_INSTALLED": 404,
    "BUSY": 409,
    "LOCAL_CHECKOUT": 409,
}


class StoreError(LedpanelError):
    """A store operation that failed for a reason the user can act on."""

    error_code = "STORE_ERROR"
    status = 500

    def __init__(self, message: str, error_code: str, *, details: Any = None) -> None:
        super().__init__(message, error_code=error_code,
                         status=_STATUS.get(error_code, 500), details=details)
