"""The plugin store, which only the web daemon runs.

- ``registry/``: where the catalogue comes from, fetched, parsed tolerantly, cached, searched.
- ``install/``: download a plugin folder, check it, install or replace it all or nothing.
- ``jobs``, ``jobs_file``: long operations as jobs with progress, kept across restarts;
  ``app_jobs``: the web app's one job store and runner.
- ``work``, ``update``: what the install, uninstall and update jobs do.
- ``update_status``, ``host_status``: update checks and the repository host's state.
- ``auto_schedule``, ``auto_update``: the weekly automatic update (pure schedule, timer).
- ``repo_url``, ``errors``: repository URLs; the store's one error type.

Flask appears only where per-app state lives: ``app_jobs``, ``auto_update`` and ``update``.
"""
