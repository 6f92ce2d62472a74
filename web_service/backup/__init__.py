"""Backup archives: a ZIP of the config, the secrets (opt-in), uploaded fonts and plugin
uploads, and restoring one that is checked whole before anything is changed.

``archive`` writes them, ``check`` reads an untrusted one into memory-bounded checked
files, ``restore`` plans and applies a checked one (config last, in one transaction)
and keeps the pre-restore archives.
"""
