"""Background data for plugins: fetches off the render thread, their results and callbacks.
"""
