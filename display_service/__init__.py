"""The display daemon: owns the panel, loads plugins and renders their display modes."""
