"""The store's registry: sources, fetching, tolerant parsing, the cache file, search.
"""
