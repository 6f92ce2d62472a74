"""The web's side of scripted (pixlet) apps: installing, configuring and browsing them.

The web never runs app code in its own process: an app's schema is asked of the
capped worker (``shared.starlark.isolated.AppRenderer``). Installed apps live in the
``starlark-apps`` plugin's apps folder (``shared.starlark.installed.folder``); their
settings are the ``starlark-apps`` config section, saved through the one config save
path. What the display rendered is read back from the bus and the preview files.
"""
