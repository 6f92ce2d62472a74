"""What the web does to the system it runs on: privileged commands, the core update."""
