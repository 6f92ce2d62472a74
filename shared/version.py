"""The core's own version number."""

CORE_VERSION = "3.8.0"
