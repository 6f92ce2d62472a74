"""A loopback HTTP server that plays the repository host and serves registries.

It answers what the store asks the real host, with the same shapes:

- ``GET /api/repos/{owner}/{repo}/git/trees/{branch}?recursive=1``: the recursive tree
  listing (``sha``, ``tree`` of ``path``/``mode``/``type``/``sha``/``size``,
  ``truncated``), git object ids computed as git does;
- ``GET /api/repos/{owner}/{repo}/commits/{branch}`` and ``.../branches/{branch}``:
  the branch head commit;
- ``GET /api/rate_limit``: the quota (``resources.core`` and ``rate``);
- ``GET /{owner}/{repo}/raw/{branch}/{path}``: a raw file;
- ``GET /{owner}/{repo}/archive/refs/heads/{branch}.zip``: the branch as a ZIP archive
  with one top folder ``{repo}-{branch}/``, as the host builds it;
- any path given to ``serve()`` (a registry index, for example).

Every API answer carries ``X-RateLimit-Limit`` / ``X-RateLimit-Remaining``. Faults are
switched on by attributes (``rate_limited``, ``api_status``, ``truncated``, ``delay``,
``cut``, ``drip``, ``status``, ``redirect``, ``zip_override``); ``requests`` lists the
paths asked for, and ``auth`` the ``Authorization`` headers received.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
import time
import zipfile
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

Files = dict[str, bytes]
FILE_MODE = "100644"
LINK_MODE = "120000"
DRIP_BYTES = 8  # a dripping answer's piece size


def blob_sha(data: bytes) -> str:
    """The git object id of a file's content."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def tree_shas(files: Mapping[str, bytes]) -> dict[str, str]:
    """The git-like id of every folder (``""`` is the root), from its content."""
    folders: dict[str, list[str]] = {"": []}
    for path in sorted(files):
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folders.setdefault("/".join(parts[:depth]), [])
    shas: dict[str, str] = {}
    for folder in sorted(folders, key=lambda f: -f.count("/") - (f != "")):
        prefix = f"{folder}/" if folder else ""
        lines = []
        for path, data in sorted(files.items()):
            rest = path[len(prefix):] if path.startswith(prefix) else None
            if rest is not None and "/" not in rest:
                lines.append(f"blob {rest} {blob_sha(data)}")
        for sub, sha in sorted(shas.items()):
            rest = sub[len(prefix):] if sub.startswith(prefix) and sub != folder else None
            if rest and "/" not in rest:
                lines.append(f"tree {rest} {sha}")
        shas[folder] = hashlib.sha1("\n".join(lines).encode()).hexdigest()
    return shas


class Repo:
    """One repository's branches: ``files[branch]`` maps paths to bytes."""

    def __init__(self) -> None:
        self.files: dict[str, Files] = {}
        self.links: dict[str, dict[str, str]] = {}  # branch -> symlink path -> target
        self.pushes: dict[str, int] = {}

    def head(self, branch: str) -> str:
        root = tree_shas(self.files.get(branch, {}))[""]
        return hashlib.sha1(f"{root}:{self.pushes.get(branch, 0)}".encode()).hexdigest()


class RepoHost:
    """The server; ``with RepoHost() as host:`` starts and stops it."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], Repo] = {}
        self.served: dict[str, tuple[bytes, str]] = {}
        self.requests: list[str] = []
        self.auth: list[str] = []
        self.rate_limited = False
        self.remaining = 60
        self.api_status: int | None = None  # every API answer gets this status
        self.truncated = False
        self.delay: dict[str, float] = {}  # path prefix -> seconds before answering
        self.cut: dict[str, int] = {}  # path suffix -> bytes sent before the line drops
        self.drip: dict[str, float] = {}  # path suffix -> seconds between DRIP_BYTES pieces
        self.status: dict[str, int] = {}  # path suffix -> status code answered
        self.redirect: dict[str, str] = {}  # exact path -> Location of a 302 answer
        self.zip_override: dict[tuple[str, str, str], bytes] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- running ----------------------------------------------------------------------

    def __enter__(self) -> RepoHost:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def api_url(self) -> str:
        return f"{self.url}/api"

    def repo_url(self, owner: str, name: str) -> str:
        return f"{self.url}/{owner}/{name}"

    # -- content ----------------------------------------------------------------------

    def push(self, owner: str, name: str, files: Mapping[str, bytes | str], *,
             branch: str = "main", under: str = "", replace: bool = False) -> str:
        """Put ``files`` (paths relative to ``under``) on ``branch``; return the head.

        ``replace`` first removes everything below ``under``.
        """
        repo = self.repos.setdefault((owner, name), Repo())
        with self._lock:
            tree = repo.files.setdefault(branch, {})
            prefix = f"{under.strip('/')}/" if under.strip("/") else ""
            if replace:
                for path in [p for p in tree if p.startswith(prefix)]:
                    del tree[path]
            for path, data in files.items():
                tree[prefix + path] = data.encode() if isinstance(data, str) else data
            repo.pushes[branch] = repo.pushes.get(branch, 0) + 1
            return repo.head(branch)

    def link(self, owner: str, name: str, path: str, target: str, *,
             branch: str = "main") -> None:
        """Add a symbolic link to the branch (listed with mode 120000, zipped as a link)."""
        repo = self.repos.setdefault((owner, name), Repo())
        with self._lock:
            repo.links.setdefault(branch, {})[path] = target

    def serve(self, path: str, data: bytes | str | Any,
              content_type: str = "application/json") -> str:
        """Serve ``data`` (JSON-encoded unless bytes or str) at ``path``; return its URL."""
        if not isinstance(data, bytes | str):
            data = json.dumps(data)
        body = data.encode() if isinstance(data, str) else data
        with self._lock:
            self.served["/" + path.lstrip("/")] = (body, content_type)
        return f"{self.url}/{path.lstrip('/')}"

    def tree_sha(self, owner: str, name: str, folder: str = "", branch: str = "main") -> str:
        return tree_shas(self.repos[(owner, name)].files[branch])[folder.strip("/")]

    def head(self, owner: str, name: str, branch: str = "main") -> str:
        return self.repos[(owner, name)].head(branch)

    def asked(self, fragment: str) -> int:
        """How many requests had ``fragment`` in their path."""
        with self._lock:
            return sum(fragment in path for path in self.requests)

    # -- answers ----------------------------------------------------------------------

    def tree_listing(self, owner: str, name: str, branch: str) -> dict[str, Any] | None:
        repo = self.repos.get((owner, name))
        if repo is None or branch not in repo.files:
            return None
        files = repo.files[branch]
        folders = tree_shas(files)
        entries = [{"path": f, "mode": "040000", "type": "tree", "sha": sha}
                   for f, sha in folders.items() if f]
        entries += [{"path": p, "mode": FILE_MODE, "type": "blob", "sha": blob_sha(d),
                     "size": len(d)} for p, d in files.items()]
        entries += [{"path": p, "mode": LINK_MODE, "type": "blob",
                     "sha": blob_sha(t.encode()), "size": len(t)}
                    for p, t in repo.links.get(branch, {}).items()]
        entries.sort(key=lambda e: e["path"])
        return {"sha": folders[""], "tree": entries, "truncated": self.truncated,
                "url": f"{self.api_url}/repos/{owner}/{name}/git/trees/{folders['']}"}

    def archive(self, owner: str, name: str, branch: str) -> bytes | None:
        if (owner, name, branch) in self.zip_override:
            return self.zip_override[(owner, name, branch)]
        repo = self.repos.get((owner, name))
        if repo is None or branch not in repo.files:
            return None
        out = io.BytesIO()
        top = f"{name}-{branch}/"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(top, b"")
            for path, data in sorted(repo.files[branch].items()):
                archive.writestr(top + path, data)
            for path, target in repo.links.get(branch, {}).items():
                info = zipfile.ZipInfo(top + path)
                info.external_attr = 0o120777 << 16
                archive.writestr(info, target)
        return out.getvalue()

    def raw(self, owner: str, name: str, branch: str, path: str) -> bytes | None:
        repo = self.repos.get((owner, name))
        if repo is None:
            return None
        return repo.files.get(branch, {}).get(path)


def _handler(host: RepoHost) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out as two writes: without this each answer waits ~40 ms
        # for the client's delayed acknowledgement, a cost no real host has.
        disable_nagle_algorithm = True

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            path = unquote(urlsplit(self.path).path)
            with host._lock:
                host.requests.append(path)
                if self.headers.get("Authorization"):
                    host.auth.append(self.headers["Authorization"])
            for prefix, seconds in host.delay.items():
                if path.startswith(prefix):
                    time.sleep(seconds)
            for suffix, code in host.status.items():
                if path.endswith(suffix):
                    return self._send(code, b'{"message": "fault"}')
            if path in host.redirect:
                return self._moved(host.redirect[path])
            if path.startswith("/api/"):
                return self._api(path[len("/api"):])
            if path in host.served:
                body, kind = host.served[path]
                return self._send(200, body, kind)
            raw = re.fullmatch(r"/([^/]+)/([^/]+)/raw/([^/]+)/(.+)", path)
            if raw:
                data = host.raw(*raw.groups())
                return self._send(200, data, "application/octet-stream") if data is not None \
                    else self._send(404, b"404: Not Found", "text/plain")
            zipped = re.fullmatch(r"/([^/]+)/([^/]+)/archive/refs/heads/(.+)\.zip", path)
            if zipped:
                data = host.archive(*zipped.groups())
                return self._send(200, data, "application/zip") if data is not None \
                    else self._send(404, b"404: Not Found", "text/plain")
            return self._send(404, b'{"message": "Not Found"}')

        def _api(self, path: str) -> None:
            if path == "/rate_limit":
                core = {"limit": 60, "remaining": 0 if host.rate_limited else host.remaining,
                        "reset": int(time.time()) + 3600, "used": 0}
                return self._send(200, json.dumps({"resources": {"core": core},
                                                   "rate": core}).encode(), api=True)
            if host.rate_limited:
                return self._send(403, b'{"message": "API rate limit exceeded"}', api=True)
            if host.api_status is not None:
                return self._send(host.api_status, b'{"message": "Server Error"}', api=True)
            with host._lock:
                host.remaining = max(0, host.remaining - 1)
            tree = re.fullmatch(r"/repos/([^/]+)/([^/]+)/git/trees/(.+)", path)
            if tree:
                listing = host.tree_listing(*tree.groups())
                if listing is not None:
                    return self._send(200, json.dumps(listing).encode(), api=True)
            head = re.fullmatch(r"/repos/([^/]+)/([^/]+)/(commits|branches)/(.+)", path)
            if head:
                owner, name, kind, branch = head.groups()
                repo = host.repos.get((owner, name))
                if repo is not None and branch in repo.files:
                    sha = repo.head(branch)
                    body = {"sha": sha} if kind == "commits" else \
                        {"name": branch, "commit": {"sha": sha}}
                    return self._send(200, json.dumps(body).encode(), api=True)
            return self._send(404, b'{"message": "Not Found"}', api=True)

        def _moved(self, location: str) -> None:
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _send(self, code: int, body: bytes, kind: str = "application/json",
                  api: bool = False) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if api:
                self.send_header("X-RateLimit-Limit", "60")
                self.send_header("X-RateLimit-Remaining",
                                 "0" if host.rate_limited else str(host.remaining))
            self.end_headers()
            path = urlsplit(self.path).path
            drip = next((t for s, t in host.drip.items() if path.endswith(s)), None)
            if drip is not None:
                return self._drip(body, drip)
            cut = next((n for s, n in host.cut.items() if path.endswith(s)), None)
            if cut is not None:
                self.wfile.write(body[:cut])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

        def _drip(self, body: bytes, seconds: float) -> None:
            self.close_connection = True
            for start in range(0, len(body), DRIP_BYTES):  # ends at the end or a hang-up
                try:
                    self.wfile.write(body[start:start + DRIP_BYTES])
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(seconds)

    return Handler
