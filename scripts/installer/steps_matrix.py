"""Build the matrix binding (module ``rgbmatrix``) from rpi-rgb-led-matrix's source.

The library is not on PyPI. Its current build is ``pip install .`` in the library's
checkout (scikit-build-core, CMake, Cython), run with the venv's own python so the
binding lands in the environment both daemons use. What broke elsewhere, handled here:

- boards with 1 GB or less: the compiler is killed for memory; a temporary swap file
  is added for the build (and removed after it, whatever happens) and one job runs;
- ``/tmp`` in RAM (trixie) filling: the checkout and pip's temporary folder are on disk
  under ``/var/tmp/ledpanel-build``;
- the fifth-generation board (Pi 5): it needs the library's RP1 backend. The binding
  must have the RP1 option (``rp1_rio``); one without it is rebuilt, and a build of a
  library revision without it fails with what to do.
"""

from __future__ import annotations

import os

from installer.context import Context, StepFailed
from installer.step import Step
from installer.steps_python import BUILD_DIR, BUILD_TMP, PIP_TIMEOUT, build_env
from installer.system_info import board_model, is_fifth_generation, is_low_memory

SWAP_FILE = "/var/tmp/ledpanel-build.swap"
SWAP_MIB = 1024
LIBRARY_DIR = f"{BUILD_DIR}/rpi-rgb-led-matrix"
# The build command, as the display's `library` hint names it (a test holds them equal).
BUILD_COMMAND = ("-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                 "--prefer-binary", ".")
CHECK_CODE = ("import rgbmatrix; o = rgbmatrix.RGBMatrixOptions(); "
              "print('rp1' if hasattr(o, 'rp1_rio') else 'no-rp1')")


def venv_python(ctx: Context) -> str:
    return str(ctx.path(ctx.venv) / "bin" / "python")


def binding_state(ctx: Context) -> str | None:
    """Return "rp1" or "no-rp1" for an importable binding, None when there is none."""
    done = ctx.query([venv_python(ctx), "-c", CHECK_CODE])
    words = done.stdout.split()
    return words[-1] if done.returncode == 0 and words else None


class MatrixBinding(Step):
    name = "matrix"
    title = "build the matrix binding (rgbmatrix) from rpi-rgb-led-matrix's source"

    def pending(self, ctx: Context) -> list[str]:
        state = binding_state(ctx)
        if state is None:
            return ["build rgbmatrix"]
        if is_fifth_generation(board_model(ctx)) and state != "rp1":
            return ["rebuild rgbmatrix with the Pi 5 (RP1) backend"]
        return []

    def apply(self, ctx: Context, pending: list[str]) -> None:
        model = board_model(ctx)
        pi5 = is_fifth_generation(model)
        low = is_low_memory(ctx)
        jobs = 1 if low else (os.cpu_count() or 1)
        ctx.note(f"board: {model or 'unknown'}; {jobs} compile job(s)"
                 + ("; Pi 5: RP1 backend" if pi5 else ""))
        source = ctx.path(LIBRARY_DIR)
        ctx.remove(source)
        ctx.run(["git", "clone", "--quiet", "--depth", "1", ctx.matrix_source, str(source)])
        if not ctx.dry_run:
            ctx.path(BUILD_TMP).mkdir(parents=True, exist_ok=True)
        if low:
            ctx.note("1 GB or less: a temporary swap file for the build, one job "
                     "(this takes 15-25 minutes)")
            add_swap(ctx)
        try:
            ctx.run([venv_python(ctx), *BUILD_COMMAND], cwd=source,
                    env=build_env(ctx, jobs), timeout=PIP_TIMEOUT * 2)
        finally:
            if low:
                remove_swap(ctx)
        ctx.remove(ctx.path(BUILD_DIR))
        if not ctx.dry_run:
            check_built(ctx, pi5)


def check_built(ctx: Context, pi5: bool) -> None:
    state = binding_state(ctx)
    if state is None:
        raise StepFailed("the binding was built but does not import",
                         command=f"{venv_python(ctx)} -c 'import rgbmatrix'")
    if pi5 and state != "rp1":
        raise StepFailed("this library revision has no Pi 5 (RP1) backend",
                         hint=f"build a newer one: scripts/install --from matrix "
                              f"--matrix-source <git URL of rpi-rgb-led-matrix> "
                              f"(was {ctx.matrix_source})")


def add_swap(ctx: Context) -> None:
    swap = ctx.path(SWAP_FILE)
    if swap.exists() and not ctx.dry_run:  # left by an interrupted run, maybe still on
        ctx.query(["swapoff", str(swap)])
    ctx.remove(swap)
    ctx.run(["fallocate", "-l", f"{SWAP_MIB}M", str(swap)])
    if not ctx.dry_run:
        os.chmod(swap, 0o600)
    ctx.run(["mkswap", str(swap)])
    ctx.run(["swapon", str(swap)])


def remove_swap(ctx: Context) -> None:
    swap = ctx.path(SWAP_FILE)
    try:
        ctx.run(["swapoff", str(swap)])
    finally:
        ctx.remove(swap)

