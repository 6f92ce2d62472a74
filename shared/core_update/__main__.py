"""``python -m shared.core_update``: run one core update (the ``ledpanel-update`` unit).

Reads the request ``<cache_dir>/core_update/request.json`` (who asked, may it stash),
runs the update and exits 0 for ``updated`` or ``up_to_date``, 1 for any other verdict.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from shared.core_update import state, updater
from shared.paths import ROOT, resolve_paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.core_update")
    parser.add_argument("--root", default=str(ROOT), help="the install's checkout")
    parser.add_argument("--cache-dir", help="the bus folder (default: as the daemons)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cache_dir = resolve_paths(cache_dir=args.cache_dir).cache_dir
    result = updater.run(Path(args.root).resolve(), cache_dir, state.read_request(cache_dir))
    return 0 if result.get("result") in (state.UPDATED, state.UP_TO_DATE) else 1


if __name__ == "__main__":
    sys.exit(main())
