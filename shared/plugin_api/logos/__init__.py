"""Team and league logos for plugins: downloads, a bounded download pool, placeholders.
"""
