"""What every answer tells the browser about where it may be shown and what it may load.

The UI never frames itself and loads nothing from another origin, so each answer (pages,
partials, API, static files, streams, refusals and errors alike) says:

- ``X-Frame-Options: SAMEORIGIN`` and CSP ``frame-ancestors 'self'``: no other site can
  put the UI in a frame and trick a click through it;
- a Content-Security-Policy its own pages satisfy: scripts only from our own static
  files (no inline script, no ``javascript:`` URL, no inline event handler). The one
  allowance is ``'unsafe-eval'``: the vendored Alpine (standard build) turns each
  ``x-*`` expression into a function with ``new Function`` (the UI does not render
  without it). Styles may be inline: htmx adds its indicator style, and the page that
  refuses an unknown Host carries its style inline (its stylesheet would be refused
  too). Images may be ``data:`` (the live preview) and ``blob:`` (font samples);
- ``X-Content-Type-Options: nosniff``: a file is used only as what it says it is.

A view that set one of these itself keeps its own value.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
))

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "SAMEORIGIN",
    "X-Content-Type-Options": "nosniff",
}


def install_page_policy(app: Flask) -> None:
    """Add ``HEADERS`` to every answer ``app`` gives."""
    app.after_request(_add_headers)


def _add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
