"""Server-sent-event streams outside ``/api/v3``: live preview, stats and logs.
"""
