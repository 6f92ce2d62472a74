"""The core update: pull a new release of the install, verify it, roll it back on failure.

``updater`` is the flow (run as ``python -m shared.core_update`` by the
``ledpanel-update`` unit, or as a detached process on a development run); ``state``
is the one file that says how it goes; ``git`` the repository commands; ``health`` the
check after the restart; ``limits`` the time limits and their worst-case sum.
"""
