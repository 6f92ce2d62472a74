"""The config manager plugins receive, under the name the existing plugin API uses.

Community plugins type-hint ``src.config_manager.ConfigManager``; the object they get
as ``plugin_manager.config_manager`` is a ``ConfigView`` (``load_config()``,
``get_timezone()``).
"""

from shared.plugin_system.manager import ConfigView as ConfigManager

__all__ = ["ConfigManager"]
