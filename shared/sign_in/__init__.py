"""Optional sign-in: the password hash, API tokens and browser sessions of one install.

No Flask here: the web daemon's ``web_service.access.sign_in`` enforces it on every request,
the ``ledpanel sign-in`` command sets the password and makes tokens with the web down.
"""
