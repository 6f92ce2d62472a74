"""Everything a plugin programs against, in one place.

- ``base_plugin``: ``BasePlugin``, the class every plugin extends.
- ``common``: the blessed helpers (adaptive layout, scroll, text, logos, HTTP APIs).
- ``cache``: the cache manager plugins receive, its per-plugin quota and listing.
- ``background``: background data fetches and their callbacks.
- ``logos``: the logo downloader and its placeholder images.
- ``config_manager``: the config manager under the name the existing plugin API uses.
- ``compat``: the ``src.*`` names community plugins import, served from this package.

The display surface plugins draw on is ``display_service.plugins.display_manager``; the
font manager is ``shared.fonts.manager``.
"""
