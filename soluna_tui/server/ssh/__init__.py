"""Runs in the server process.

The SSH door of ``soluna serve``: what only an SSH client meets.

===================  ================  ===========================================================================
Module               Runs in           What it does
===================  ================  ===========================================================================
ssh_server.py        server process    the asyncssh listener: a ``SolunaConnection`` a client, the lobby, the children
host_key.py          server process    the server's ed25519 host key
channel_guard.py     server process    the channel requests a session acts on, and their budget
proxy_protocol.py    server process    the real client's address from a trusted load balancer
quiet_asyncssh.py    server process    asyncssh imported without cryptography's warnings about its code
===================  ================  ===========================================================================
"""
