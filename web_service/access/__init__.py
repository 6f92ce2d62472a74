"""Who may use the web UI: the guard in front of every route (Host allow-list, cross-site
refusal, page token) and the optional sign-in.
"""
