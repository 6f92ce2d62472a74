"""The modules apps ``load``: each a Starlark text over a few Python functions."""
