"""The worker process: the only place plugin code runs (``python -m preview_service.worker``).

It reads one JSON request per line on stdin and writes one JSON answer per line. File
descriptor 1 is moved aside first and pointed at stderr, so what a plugin prints can
never break the answers. Request: ``{"plugin_dir", "sizes": [[w, h]...], "config",
"mode", "frames"}``; answer: ``{"results": [...]}`` (``render.render_size``
per size). A plugin raising ``SystemExit`` is reported by that class name (the harness
contains it); one that ends the process or hangs is the client's to notice
(``worker_client``).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import IO, Any

from preview_service.render import render_size


def _answers() -> IO[str]:
    private = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private, "w", encoding="utf-8")


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """Render every size of one request."""
    return {"results": [render_size(Path(request["plugin_dir"]), (int(width), int(height)),
                                    request.get("config") or {}, request.get("mode"),
                                    int(request.get("frames") or 1))
                        for width, height in request["sizes"]]}


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    out = _answers()
    for line in sys.stdin:
        answer = handle(json.loads(line))
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
