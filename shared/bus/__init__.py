"""The JSON-file bus between the daemons and what keeps it sound: the bus itself
(``core``), its folder guard and upkeep, the daemons' locks, and the display status read
from it.
"""
