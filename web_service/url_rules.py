"""DeferredBuildRule: a URL rule that writes its URL builder on first use.

Werkzeug compiles two URL builders (Python source, parsed and compiled) for
every rule when the rule is added; with a hundred routes that is half of the
application's build time, paid on every start of a daemon that, on a Pi, runs
under a small CPU share. Most builders are never used (``url_for`` is called
for a handful of pages), so each one is compiled the first time it is called
and kept from then on. Matching is untouched: only building is deferred.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule

Builder = Callable[..., tuple[str, str]]


class DeferredBuildRule(Rule):
    """A Rule whose builders are compiled on their first call."""

    def _compile_builder(self, append_unknown: bool = True) -> Builder:
        compiled: Builder | None = None

        def build(rule: Rule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            nonlocal compiled
            if compiled is None:
                stock = Rule._compile_builder(rule, append_unknown)
                compiled = stock.__get__(rule, None)
            return compiled(*args, **kwargs)

        return build
