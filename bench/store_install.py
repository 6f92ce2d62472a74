"""Plugin store install of a 50-file plugin from the loopback repository host.

Target (issue 10): < 2 s without dependencies. The plugin (manifest, manager.py,
config_schema.json and 47 modules, assets and data files of 2-100 KB, no
requirements.txt) sits at ``plugins/<id>`` of a monorepo on the store tests' loopback
host (``tests.web_service.store.repo_host``). Each way is timed ``--runs`` times, every run a
reinstall over the previous one after a push of a new version (so the swap and the
previous folder's removal are included):

- (a) the library, ``web_service.store.install.folders.install_plugin``, into a temporary plugins
  folder by the API way: one tree listing, one branch-head request, one raw download
  per file, each checked against the listing;
- (b) the same with the host's API rate limited: the branch's ZIP archive instead;
- (c) through the running daemons (both, as subprocesses, env pointing at the host):
  ``POST /api/v3/plugins/install`` with the registry id, then ``GET
  /api/v3/plugins/store/jobs/<id>`` every 10 ms until the job is done: the job queue,
  the install, the config section and the display's acknowledgement included. Left
  out (and said so) when the web daemon has no such route.

(a) and (c) run twice: with the host as the tests use it, and with its answers sent
with ``TCP_NODELAY``. The stand-in (``http.server``) writes an answer's headers and body
in two sends; without ``TCP_NODELAY`` the body waits for the client's delayed ACK of
the headers, about 40 ms on Linux, so each of the API way's 52 requests costs ~40 ms
that belongs to the stand-in, not to the installer or to the real host.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

from bench.common import demo_instance
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running
from tests.web_service.store.repo_host import Files, RepoHost
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry
from web_service.store.install.folders import InstallSource, install_plugin

RUNS = 10
PLUGIN = "bench-board"
OWNER, MONO = "acme", "ledpanel-plugins"
JOB_TIMEOUT = 60.0
DISPLAY_STEP = "telling the display"  # the job's step once the folder is in place


def fifty_files(version: str, seed: int = 10) -> Files:
    """Return a 50-file plugin: 3 core files and 47 of mixed kinds and sizes (2-100 KB)."""
    pick = random.Random(seed)
    extra: Files = {}
    for index in range(20):  # Python modules: text
        line = f"VALUE_{index} = {index!r}  # a line of plugin code, padded to a width\n"
        extra[f"board/module_{index:02d}.py"] = (line * (pick.randint(2, 20) * 1024
                                                        // len(line))).encode()
    for index in range(15):  # images: incompressible
        extra[f"assets/logos/logo_{index:02d}.png"] = pick.randbytes(pick.randint(5, 100) * 1024)
    for index in range(12):  # fonts and data: text
        size = pick.randint(3, 60) * 1024
        extra[f"assets/data/table_{index:02d}.json"] = json.dumps(
            [pick.randint(0, 10**6) for _ in range(size // 8)]).encode()[:size]
    files = plugin_files(PLUGIN, version=version, extra=extra)
    assert len(files) == 50, len(files)
    return files


def _push(host: RepoHost, run: int) -> str:
    version = f"1.0.{run}"
    host.push(OWNER, MONO, fifty_files(version), under=f"plugins/{PLUGIN}", replace=True)
    return version


def _stats(label: str, seconds: list[float], moved: str) -> None:
    print(f"{label}: median {statistics.median(seconds):.3f} s, min {min(seconds):.3f} s, "
          f"max {max(seconds):.3f} s over {len(seconds)} installs; {moved}; target < 2 s: "
          f"{'met' if max(seconds) < 2 else 'NOT met'} (max)")


def _folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file() and p.name != ".ledpanel-store.json"]
    return len(files), sum(p.stat().st_size for p in files)


def set_nodelay(host: RepoHost, on: bool) -> None:
    """Make ``host`` send its answers with ``TCP_NODELAY`` (on new connections) or not."""
    # StreamRequestHandler's own switch: TCP_NODELAY on each accepted connection
    setattr(host._server.RequestHandlerClass, "disable_nagle_algorithm", on)  # noqa: B010


def quiet_resets(host: RepoHost) -> None:
    """Keep ``host`` from printing a traceback when a client drops a kept-alive connection.

    The installer closes its session after a 403 listing without reading on, which
    resets the idle connection the stand-in was waiting on: not an error of either.
    """
    server = host._server
    report = server.handle_error

    def handle_error(request: object, address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionResetError):
            report(request, address)  # type: ignore[arg-type]

    setattr(server, "handle_error", handle_error)  # noqa: B010


def _mode(host: RepoHost) -> str:
    quick = getattr(host._server.RequestHandlerClass, "disable_nagle_algorithm", False)
    return "host with TCP_NODELAY (as the tests' stand-in sends)" if quick else \
        "host without TCP_NODELAY (each answer waits ~40 ms for a delayed ACK)"


def library(host: RepoHost, runs: int, *, limited: bool) -> None:
    """Time ``install_plugin`` by the API way, or by the ZIP way when ``limited``."""
    source = InstallSource(repo=host.repo_url(OWNER, MONO), plugin_id=PLUGIN,
                           plugin_path=f"plugins/{PLUGIN}")
    seconds = []
    host.rate_limited = limited
    try:
        with tempfile.TemporaryDirectory() as tmp:
            plugins_dir = Path(tmp) / "plugin-repos"
            for run in range(runs):
                version = _push(host, run)
                host.requests.clear()
                started = time.perf_counter()
                result = install_plugin(source, plugins_dir, api_url=host.api_url)
                seconds.append(time.perf_counter() - started)
                if result.version != version:
                    raise RuntimeError(f"installed {result.version}, expected {version}")
            files, size = _folder_size(plugins_dir / PLUGIN)
            asked = len(host.requests)
            archive = host.archive(OWNER, MONO, "main") or b""
    finally:
        host.rate_limited = False
    way = (f"ZIP archive ({len(archive) / 1024:.0f} KB)" if limited
           else "tree listing + raw files")
    label = f"(b) library, API rate limited, {way}" if limited else f"(a) library, {way}"
    _stats(f"{label}, {_mode(host)}", seconds,
           f"{files} files, {size / 1024:.0f} KB installed, {asked} requests to the host "
           "per install")


def _post_install(url: str) -> requests.Response:
    return requests.post(f"{url}/api/v3/plugins/install",
                         json={"plugin_id": PLUGIN, "wait": 0}, timeout=30)


def _until_done(url: str, job_id: str, session: requests.Session,
                seen: dict[str, float] | None = None) -> dict:
    """Poll the job until it ends; note in ``seen`` when each step was first seen."""
    deadline = time.monotonic() + JOB_TIMEOUT
    while time.monotonic() < deadline:
        job = session.get(f"{url}/api/v3/plugins/store/jobs/{job_id}", timeout=10).json()
        job = job.get("data") or {}
        if seen is not None:
            seen.setdefault(str(job.get("step")), time.perf_counter())
        if job.get("state") in ("done", "failed"):
            return job
        time.sleep(0.01)
    raise TimeoutError(f"job {job_id} did not finish in {JOB_TIMEOUT:.0f} s")


def through_route(host: RepoHost, runs: int) -> bool:
    """Time POST /plugins/install to the job's end on the running daemons.

    Return False (having said so) when the web daemon has no such route.
    """
    repo = host.repo_url(OWNER, MONO)
    os.environ["LEDPANEL_REGISTRY_URL"] = host.serve(  # the daemons inherit these
        "plugins.json", registry(registry_entry(PLUGIN, repo, plugin_path=f"plugins/{PLUGIN}")))
    os.environ["LEDPANEL_REPOSITORY_API_URL"] = host.api_url
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp))
        with running(instance) as (_display, _web, url):
            Bus(instance.cache_dir).wait_for(
                keys.DISPLAY_STATE, lambda s: bool(s and s.get("plugin_id")), 10)
            _push(host, 0)
            probe = _post_install(url)
            if probe.status_code == 404 or probe.status_code == 405:
                print(f"(c) through the route: left out: POST /api/v3/plugins/install "
                      f"answered {probe.status_code} (the route is not there yet)")
                return False
            if probe.status_code not in (200, 202):
                raise RuntimeError(f"install answered {probe.status_code}: {probe.text}")
            session = requests.Session()
            _until_done(url, probe.json()["data"]["job_id"], session)  # the first, aside
            seconds, displays, telling = [], [], []
            for run in range(1, runs + 1):
                version = _push(host, run)
                seen: dict[str, float] = {}
                started = time.perf_counter()
                answer = _post_install(url)
                if answer.status_code not in (200, 202):
                    raise RuntimeError(f"install answered {answer.status_code}: {answer.text}")
                job = _until_done(url, answer.json()["data"]["job_id"], session, seen)
                seconds.append(time.perf_counter() - started)
                if DISPLAY_STEP in seen:
                    telling.append(seconds[-1] - (seen[DISPLAY_STEP] - started))
                if job["state"] != "done":
                    raise RuntimeError(f"job failed: {job}")
                displays.append(str((job.get("result") or {}).get("display")))
                installed = json.loads((instance.plugins_dir / PLUGIN / "manifest.json")
                                       .read_text())["version"]
                if installed != version:
                    raise RuntimeError(f"installed {installed}, expected {version}")
            files, size = _folder_size(instance.plugins_dir / PLUGIN)
    _stats(f"(c) POST /api/v3/plugins/install to job done (both daemons), {_mode(host)}",
           seconds, f"{files} files, {size / 1024:.0f} KB; display: {displays[-1]}")
    if telling:
        print(f"    of which from the step {DISPLAY_STEP!r} (seen by a 10 ms poll) to done: "
              f"median {statistics.median(telling):.3f} s, max {max(telling):.3f} s")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--skip-route", action="store_true", help="leave (c) out")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="ms the host waits before each answer (a distant host)")
    args = parser.parse_args()
    runs = max(1, min(args.runs, 200))
    logging.getLogger("web_service.store").setLevel(logging.ERROR)  # one ZIP warning per install
    ways: list[tuple[bool, Callable[[RepoHost, int], object]]] = [
        (False, lambda host, n: library(host, n, limited=False)),
        (True, lambda host, n: library(host, n, limited=False)),
        (False, lambda host, n: library(host, n, limited=True))]
    with RepoHost() as host:
        quiet_resets(host)
        if args.latency > 0:
            host.delay["/"] = min(args.latency, 1000) / 1000
            print(f"the host waits {args.latency:.0f} ms before each answer")
        _push(host, 0)
        with tempfile.TemporaryDirectory() as tmp:  # imports and first connections aside
            install_plugin(InstallSource(repo=host.repo_url(OWNER, MONO), plugin_id=PLUGIN,
                                         plugin_path=f"plugins/{PLUGIN}"),
                           Path(tmp), api_url=host.api_url)
        for quick, way in ways:
            set_nodelay(host, quick)
            way(host, runs)
        if not args.skip_route:
            set_nodelay(host, False)
            if through_route(host, runs):
                set_nodelay(host, True)
                through_route(host, runs)


if __name__ == "__main__":
    main()
