"""Notifications and the cards they draw, as both daemons and the MQTT bridge need them.

``fields`` checks a notification's body, ``requests`` puts one on the bus,
``icons`` holds the built-in pixel-art icons and ``draw`` paints a card (text,
icon, colour) on any panel size.
"""
