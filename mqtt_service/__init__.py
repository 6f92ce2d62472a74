"""``ledpanel-mqtt``: the MQTT bridge, a third process beside the display and the web.

It connects to the home's broker with the settings of config.json's ``mqtt`` section,
publishes the panel's state and takes commands, talking to the display only through
the bus like the web does. Why a process of its own: docs/DESIGN.md, "The MQTT bridge".
"""
