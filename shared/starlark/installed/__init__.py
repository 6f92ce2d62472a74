"""Installed scripted apps: where they live, their ids, their manifests, installing them.

Both daemons use this package: the web installs and removes apps, the display's
``starlark-apps`` plugin lists and renders them. Nothing here runs an app.
"""
