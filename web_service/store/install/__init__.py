"""Downloading, checking and installing plugin folders, all or nothing.
"""
