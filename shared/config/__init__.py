"""Configuration: the store, migration, backups, preparation and save rules."""
