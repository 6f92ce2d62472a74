"""The plugin system: manifests, discovery, loading, the plugin base class and manager.

Importing this package imports no plugin code; only ``loader`` and ``manager`` do, and
only when asked to load a plugin.
"""
