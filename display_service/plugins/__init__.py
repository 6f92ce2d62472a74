"""Plugins inside the display daemon: the host the render loop calls them through, and
everything that keeps a misbehaving plugin from taking the panel down (containment,
call trail, hang watch, breaker, safe mode, error records, output limits).
"""
