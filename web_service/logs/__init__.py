"""The daemons' logs for the web: where they are, journald, and following new lines.
"""
