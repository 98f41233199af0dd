"""Runs in the server process: asyncssh, without the deprecation warnings cryptography prints about asyncssh's code.

asyncssh 2.24 still names DSA and finite-field Diffie-Hellman (``dsa.DSAPrivateKey``, ``dh.DHParameterNumbers``),
which cryptography 51 deprecates, and so does pyOpenSSL (``OpenSSL.crypto``), which asyncssh imports where it is
installed (a system Python's, say): importing asyncssh printed five ``CryptographyDeprecationWarning``s (ten lines
of stderr), six with pyOpenSSL, before every start and every refusal of ``soluna serve``, and a client that offers
a DSA key or a Diffie-Hellman key exchange would print more while the server runs. They are for those libraries'
authors, not for a server's owner: nothing on their terminal but our own words.

Every module of the server imports asyncssh from here (``from .quiet_asyncssh import asyncssh``). Only that
category is ignored, and after the import only where asyncssh's or pyOpenSSL's modules trigger it: every other
warning, ours included, is shown as before. Once asyncssh stops naming what cryptography deprecates, this module
can go.
"""

from __future__ import annotations

import warnings

from cryptography.utils import CryptographyDeprecationWarning

with warnings.catch_warnings():  # as asyncssh and what it imports load
    warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning)
    import asyncssh

# When asyncssh uses DSA or Diffie-Hellman later. First among the filters, so it holds even under ``python -W error``.
warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning, module=r"(asyncssh|OpenSSL)(\.|$)")

__all__ = ["asyncssh"]
