"""Scripted apps: Starlark apps in the community's app format, run and drawn here.

``render/`` draws the widget tree an app returns into frames; the runtime evaluates
an app's source with the modules apps load and hands its widgets to ``render/``.
"""
