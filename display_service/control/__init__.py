"""What to show now: rotation, live priority and on-demand, as a pure state machine and
the pieces it is built from.
"""
