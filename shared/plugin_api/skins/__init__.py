"""Scoreboard skins: the host side (docs/PLUGINS.md, "Skins").

``manifest`` reads ``skins/<name>/skin.json`` without running skin code (the web lists
skins with it); ``api`` holds what a skin programs against; ``loading`` imports a skin's
``skin.py`` (the display and ``ledpanel skin check`` only); ``runner`` applies the rules
a plugin's skin lives by; ``surface`` is the ``src.skin_system`` name.
"""
