"""Metrics of both daemons for ``GET /api/v3/metrics`` and ``GET /metrics`` (Prometheus)."""
