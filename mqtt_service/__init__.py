"""The MQTT bridge: ``ledpanel-mqtt``, the panel's third process (broker <-> bus)."""
