"""The web daemon's side of the host system: the privileged commands it may run."""
