"""Notifications and custom apps pushed from outside, as both daemons and the MQTT bridge
need them: checking a body, putting a request on the bus, drawing one."""
