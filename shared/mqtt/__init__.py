"""MQTT: the bridge's settings and what the bridge and the display share about topics."""
