"""The OpenAPI 3.1 description of /api/v3: per-resource route tables and the document
built from them (served at ``GET /api/v3/openapi.json``)."""
