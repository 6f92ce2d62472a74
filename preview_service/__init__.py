"""The developer preview server: renders one plugin at many panel sizes (port 5001).

Its own process, apart from both daemons. The HTTP side (``app``, ``routes``) never
runs plugin code: every render goes to a worker process (``worker``) over JSON lines
(``worker_client``), killed and restarted when a plugin hangs past the deadline or
takes the process down. ``watch`` follows the plugins' files for the page's live
reload. It imports ``shared`` and Flask, never ``display_service`` or ``web_service``.
"""
