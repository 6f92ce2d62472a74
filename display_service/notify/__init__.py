"""Notifications in the display: the stack, its layer above the others, the record."""
