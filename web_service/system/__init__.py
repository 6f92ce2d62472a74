"""What the web does to the system it runs on: the system actions behind the Overview's
buttons and ``POST /system/action`` (under systemd through ``sudo -n``, or under the
development supervisor), and the core update."""
