"""Every use of a library's private or undocumented internals, one module a library.

=========================  ===================================================================
``textual_internals.py``   Textual's (the app, its screens and widgets; never the server)
``asyncssh_internals.py``  asyncssh's (the server's channels; never the app)
=========================  ===================================================================

Each is a small typed function saying what it relies on; ``tests/test_compat.py`` fails if a library
changes under one, and keeps every other module off the libraries' private names.
"""
