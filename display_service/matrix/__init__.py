"""Matrix backends behind one small protocol; chosen at start, never at import time."""
