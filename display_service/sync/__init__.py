"""Several panels as one: a leader publishes its switches over MQTT, followers show them."""
