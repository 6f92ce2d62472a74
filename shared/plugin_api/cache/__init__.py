"""The cache plugins receive (``manager``), its per-plugin quota and its listing for the web.
"""
