"""The server-drawn web UI: pages, the tabs' partials and the forms behind them.
"""
