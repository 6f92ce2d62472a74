"""Files read and written safely: atomic JSON and text writes, bounded reads of files
anyone could have replaced, and the tail of a log file.
"""
