"""System actions: what the Overview's buttons and ``POST /system/action`` do, under
systemd (through ``sudo -n``) or under the development supervisor (``scripts/dev``)."""
