"""The render loop and what it runs each frame: the guarded plugin frame, composition,
schedules, the full-screen seam and the inbox watchers fill.
"""
