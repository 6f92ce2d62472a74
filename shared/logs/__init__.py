"""The daemons' log lines: their format (with journald's priority prefix under systemd),
where the dev log files are, and reading a line back."""
