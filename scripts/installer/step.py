"""What a step is: a name for ``--from``, a line saying what it does, and two methods."""

from __future__ import annotations

from installer.context import Context


class Step:
    """One install step.

    ``pending`` looks without changing anything and returns what is left to do (empty:
    nothing to do); ``apply`` does it, through the context only, so a dry run prints it.
    """

    name = ""
    title = ""

    def pending(self, ctx: Context) -> list[str]:
        raise NotImplementedError

    def apply(self, ctx: Context, pending: list[str]) -> None:
        raise NotImplementedError
