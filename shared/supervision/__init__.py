"""Who runs the daemons (systemd, scripts/dev or nobody) and how a process asks it to act:
the privileged commands under systemd, the request files under scripts/dev."""
