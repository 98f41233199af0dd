"""Runs in the server process.

The web door (``soluna serve --web PORT``): the same lobby in a browser tab. An aiohttp server in
the server's own process serves one page, the scripts, stylesheet and font shipped in
``textual-serve``'s wheel (xterm.js and its ``textual.js``), and a websocket per tab that speaks
``textual.js``'s messages. Each websocket is a session exactly as an SSH channel is: the same
``GameSession``, started the same way (the same zygote, the same child app on a PTY, the same link
to the same lobby, the same end), so SSH and web players share one lobby, store and fleet, and
every limit counts both doors.

===================  ===============================================================================
Module               What it does
===================  ===============================================================================
door.py              the aiohttp server: page, files, websocket (or in lines); Origin checked
connections.py       each TCP connection counted at the gate from its first byte, and its deadlines
origins.py           where the page is its own: the origin and Host it accepts (never the Host header alone)
visitor.py           one browser tab as a session's connection: its address, name, place at the gate
channel.py           the websocket as a session's channel: bytes out with back-pressure, a last line
browser_messages.py  ``textual.js``'s messages read, bounded (stdin, resize, ping, focus, blur)
page.py              the page, its stylesheet, the files served and the security headers
sign_in.py           a code typed (slow when wrong, limited), the cookie, signing out; its tabs closed when revoked
===================  ===============================================================================
"""
