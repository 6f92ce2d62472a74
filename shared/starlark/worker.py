"""The render worker: a child process that runs apps for ``isolated.AppRenderer``.

Run as ``python -m shared.starlark.worker MEMORY_MB``. Its data memory is capped
(``RLIMIT_DATA``) before any app runs, so an app that asks for gigabytes (``"a" *
2000000000``) ends this process, never the display; one that blocks in a single long
operation past its budget is killed by the parent. Requests arrive one per line on
stdin as JSON (``app``, ``config``, ``width``, ``height``, ``seconds``); each answer is
one JSON line on the real stdout (``ok``, then ``frames``, ``delay_ms``, ``size`` and
that many bytes of RGB frames, or ``error``). The app's own output never reaches the
answer channel: file descriptor 1 points at stderr while apps run. The worker keeps
each app's cache between its renders, as the display would.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from typing import IO, Any

MB = 1024 * 1024


def main(argv: list[str]) -> int:
    memory_mb = int(argv[0]) if argv else 256
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything written to stdout from here on goes to stderr
    resource.setrlimit(resource.RLIMIT_DATA, (memory_mb * MB, memory_mb * MB))
    from shared.starlark.runtime import AppCache

    caches: dict[str, tuple[AppCache, AppCache]] = {}  # per app: cache.star, http answers
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            work = _schema if request.get("kind") == "schema" else _render
            _answer(answers, work(request, caches))
        except MemoryError:
            _answer(answers, {"ok": False, "error": f"the app used more than the "
                                                      f"{memory_mb} MB of memory allowed"})
    return 0


def _render(request: dict[str, Any], caches: dict[str, Any]) -> dict[str, Any]:
    from shared.starlark.runtime import (
        AppCache,
        AppError,
        Limits,
        NothingToShow,
        load_app,
        run_app,
    )

    try:
        limits = Limits(seconds=float(request["seconds"]))
        app = load_app(str(request["app"]), limits)
        if str(request["app"]) not in caches:
            caches[str(request["app"])] = (AppCache(), AppCache())
        cache, http_cache = caches[str(request["app"])]
        frames = run_app(app, {str(k): str(v) for k, v in request["config"].items()},
                         width=int(request["width"]), height=int(request["height"]),
                         limits=limits, cache=cache, http_cache=http_cache)
    except AppError as err:
        return {"ok": False, "error": str(err), "nothing": isinstance(err, NothingToShow)}
    data = b"".join(image.convert("RGB").tobytes() for image in frames.images)
    return {"ok": True, "frames": len(frames.images), "delay_ms": frames.delay_ms,
            "show_full_animation": frames.show_full_animation,
            "size": len(data), "data": data}


def _schema(request: dict[str, Any], caches: dict[str, Any]) -> dict[str, Any]:
    from shared.starlark.runtime import AppError, Limits, app_schema, load_app

    try:
        limits = Limits(seconds=float(request["seconds"]))
        return {"ok": True, "schema": app_schema(load_app(str(request["app"]), limits))}
    except AppError as err:
        return {"ok": False, "error": str(err)}


def _answer(out: IO[bytes], answer: dict[str, Any]) -> None:
    data = answer.pop("data", b"")
    out.write(json.dumps(answer).encode() + b"\n" + data)
    out.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
