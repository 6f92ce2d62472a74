"""The widget tree Starlark apps build, laid out and drawn into frames."""
