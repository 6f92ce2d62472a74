"""Run steps in order: say each one, skip what is done, stop at the first failure."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from installer.context import Context, StepFailed, tail
from installer.step import Step


def run_steps(ctx: Context, steps: Sequence[Step], *, start: int, retry: list[str]) -> bool:
    """Run ``steps[start:]``; return False (after saying how to retry) if one fails.

    ``retry`` is the command line that continues from a failed step, without ``--from``.
    """
    total = len(steps)
    for number, step in enumerate(steps[start:], start=start + 1):
        ctx.say(f"[{number}/{total}] {step.name}: {step.title}")
        try:
            left = step.pending(ctx)
            if not left:
                ctx.note("nothing to do")
                continue
            step.apply(ctx, left)
        except StepFailed as err:
            report_failure(ctx, step, err, retry)
            return False
        except OSError as err:
            report_failure(ctx, step, StepFailed(f"{err.strerror or err}: "
                                                 f"{err.filename or ''}".rstrip(": ")), retry)
            return False
        ctx.note("would be done" if ctx.dry_run else "done")
    return True


def report_failure(ctx: Context, step: Step, err: StepFailed, retry: list[str]) -> None:
    ctx.say(f"      FAILED: {err.message}")
    if err.command:
        ctx.say(f"      command: {err.command}")
    if err.output.strip():
        ctx.say("      its output (last lines):")
        for line in tail(err.output).splitlines():
            ctx.say(f"        | {line}")
    if err.hint:
        ctx.say(f"      {err.hint}")
    again = shlex.join([*retry, "--from", step.name])
    ctx.say(f"Fix that, then continue from this step with: sudo {again}")


def step_index(steps: Sequence[Step], name: str) -> int | None:
    for index, step in enumerate(steps):
        if step.name == name:
            return index
    return None
