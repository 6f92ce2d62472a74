"""Plugin store list and search over a registry of 500 community-like entries.

Target (issue 10): GET /api/v3/plugins/store/list p95 < 30 ms once the registry is
cached. The loopback repository host of the store tests (``tests.web_service.store.repo_host``)
serves a ``plugins.json`` of 500 entries (``tests.web_service.store.sample_plugins.registry_entry``,
with names, descriptions, authors, tags and categories drawn from word lists, so a query
matches some entries and not others); the real web daemon runs as a subprocess over a
demo instance (three installed plugins) with ``LEDPANEL_REGISTRY_URL`` and
``LEDPANEL_REPOSITORY_API_URL`` pointing at that host. The first request
(``?refresh=1``: the fetch, the parse of 500 entries and the cache write included) is
timed on its own; then each kind of request (no query, one word, two words, a category)
is asked ``--calls`` times over one keep-alive loopback connection, interleaved, and
p50/p95/max printed per kind.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

import requests

from bench.common import demo_instance, percentile, summary
from tests.daemons import start_web
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import registry, registry_entry

ENTRIES = 500
CALLS = 300
LIST = "/api/v3/plugins/store/list"
KINDS = {
    "no query": {},
    "one word (hockey)": {"query": "hockey"},
    "two words (live scores)": {"query": "live scores"},
    "category (sports)": {"category": "sports"},
}

_CATEGORIES = ["sports", "weather", "time", "finance", "news", "media", "utility",
               "games", "transit", "art"]
_SUBJECTS = ["hockey", "baseball", "soccer", "football", "basketball", "stocks", "crypto",
             "clock", "countdown", "forecast", "radar", "music", "podcast", "bus", "train",
             "flight", "calendar", "quotes", "pixel art", "game of life", "news ticker",
             "moon phase", "tides", "air quality", "youtube stats"]
_ADJECTIVES = ["live", "animated", "scrolling", "compact", "big", "retro", "minimal",
               "colourful", "daily", "rolling"]
_NOUNS = ["scores", "board", "ticker", "display", "widget", "tracker", "feed", "view",
          "panel", "summary"]
_AUTHORS = ["ChuckBuilds", "Jane Ice", "pixelpusher", "ledfan", "matrixmaker", "R. Lee",
            "tinkerer42", "Ana Sol"]


def community_registry(repo: str, count: int = ENTRIES, seed: int = 10) -> dict:
    """Return a registry index of ``count`` varied entries in the community's shape."""
    pick = random.Random(seed)
    entries = []
    for index in range(count):
        subject = pick.choice(_SUBJECTS)
        adjective, noun = pick.choice(_ADJECTIVES), pick.choice(_NOUNS)
        plugin_id = f"{subject.replace(' ', '-')}-{noun}-{index}"
        entries.append(registry_entry(
            plugin_id, repo, plugin_path=f"plugins/{plugin_id}",
            version=f"{pick.randint(0, 3)}.{pick.randint(0, 20)}.{pick.randint(0, 9)}",
            name=f"{adjective.title()} {subject.title()} {noun.title()}",
            description=(f"Shows a {adjective} {subject} {noun} on the panel, refreshed "
                         f"every {pick.choice([1, 5, 15, 60])} minutes, with "
                         f"{pick.choice(['logos', 'icons', 'colours', 'fonts'])} "
                         "you can choose in the settings."),
            author=pick.choice(_AUTHORS), category=pick.choice(_CATEGORIES),
            tags=pick.sample(_ADJECTIVES + _NOUNS + _SUBJECTS, 3),
            stars=pick.randint(0, 400), downloads=pick.randint(0, 20000),
            last_updated=f"2026-{pick.randint(1, 11):02d}-{pick.randint(1, 28):02d}",
            screenshot=f"https://example.org/shots/{plugin_id}.png"))
    return registry(*entries)


def _timed_get(session: requests.Session, url: str, params: dict[str, str]
               ) -> tuple[float, dict]:
    started = time.perf_counter()
    answer = session.get(url, params=params, timeout=30)
    elapsed = (time.perf_counter() - started) * 1000
    answer.raise_for_status()
    return elapsed, answer.json()["data"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=CALLS, help="requests of each kind")
    parser.add_argument("--entries", type=int, default=ENTRIES)
    args = parser.parse_args()
    calls = max(1, min(args.calls, 10_000))
    with RepoHost() as host, tempfile.TemporaryDirectory() as tmp:
        index = community_registry(host.repo_url("community", "plugins"), args.entries)
        registry_url = host.serve("plugins.json", index)
        print(f"registry: {len(index['plugins'])} entries, "
              f"{len(host.served['/plugins.json'][0]) / 1024:.0f} KB")
        os.environ["LEDPANEL_REGISTRY_URL"] = registry_url  # the web daemon inherits these
        os.environ["LEDPANEL_REPOSITORY_API_URL"] = host.api_url
        web, url = start_web(demo_instance(Path(tmp)))
        try:
            session = requests.Session()
            first, data = _timed_get(session, f"{url}{LIST}", {"refresh": "1"})
            print(f"first request (?refresh=1: fetch, parse, cache write): {first:.1f} ms, "
                  f"{len(data['plugins'])} plugins, stale={data['stale']}")
            samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
            found: dict[str, int] = {}
            for _ in range(calls):
                for kind, params in KINDS.items():
                    elapsed, data = _timed_get(session, f"{url}{LIST}", params)
                    samples[kind].append(elapsed)
                    found[kind] = len(data["plugins"])
            fetches = host.asked("/plugins.json")
            for kind, values in samples.items():
                print(f"GET {LIST} {kind}, {found[kind]} results: {summary(values)}")
            every = [ms for values in samples.values() for ms in values]
            print(f"all cached requests: {summary(every)}; target p95 < 30 ms: "
                  f"{'met' if percentile(every, 95) < 30 else 'NOT met'}")
            print(f"registry fetched {fetches} time(s) in all")
        finally:
            web.stop()


if __name__ == "__main__":
    main()
