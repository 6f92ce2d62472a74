"""The plugin store: registry, download and install, update checks, jobs (no Flask here)."""
