"""The Raspberry Pi installer behind ``scripts/install`` and ``scripts/uninstall``.

It runs with the system's python3 (before any virtual environment exists) and imports
nothing from the project's packages. Each step is a small object that says whether it
has anything to do and, if so, does it (``steps_system``, ``steps_python``); the runner
(``runner``) prints each step as it runs, skips what is done, and on a failure names the
command, its output and the ``--from`` that retries. Every side effect goes through
``context.Context``, so ``--dry-run`` prints what would happen and ``--root`` puts the
file-system changes under another folder (tests, image builds).
"""
