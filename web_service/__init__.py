"""The web daemon: web UI and the REST API under /api/v3."""
