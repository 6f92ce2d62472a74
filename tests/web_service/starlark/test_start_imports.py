"""The web's start does not pay for scripted apps: no Pillow, worker client or interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def test_the_app_builds_without_loading_what_only_app_routes_need(tmp_path: Path) -> None:
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from shared.paths import Paths
        from web_service.app import create_app
        from web_service.settings import WebSettings
        base = Path({str(tmp_path)!r})
        create_app(WebSettings(paths=Paths(root=base, config_dir=base / "config",
                                           cache_dir=base / "cache")))
        print(*(name in sys.modules for name in (
            "PIL.Image", "shared.starlark.isolated", "starlark", "shared.starlark.render.root",
            "shared.starlark.runtime.interpreter", "web_service.api.starlark")))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.split() == ["False", "False", "False", "False", "False", "True"]
