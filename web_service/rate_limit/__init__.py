"""Per-client limits on the web's expensive routes (docs/API.md, "Rate limits")."""
