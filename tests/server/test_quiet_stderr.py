"""Nothing but the server's own lines on its owner's terminal: no library's warnings, at start or while it runs.

asyncssh 2.24 names DSA and finite-field Diffie-Hellman, which cryptography 51 deprecates; without
``soluna_tui/server/ssh/quiet_asyncssh.py`` its import printed ten lines of warnings before every start and every
refusal, and a client's Diffie-Hellman key exchange more while serving.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import asyncssh
from cryptography.utils import CryptographyDeprecationWarning

from .helpers import TIMEOUT, client_options, served

#: A line of the server's log: its time, then its words.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \S")


def test_the_server_imports_asyncssh_without_a_warning_even_when_warnings_are_errors() -> None:
    done = subprocess.run([sys.executable, "-W", "error", "-c", "import soluna_tui.server.ssh.ssh_server"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_filter_lets_every_other_warning_through() -> None:
    """Only cryptography's warnings about asyncssh's own code are dropped: ours and any other library's stay."""
    code = """
import warnings
import soluna_tui.server.ssh.ssh_server
from cryptography.utils import CryptographyDeprecationWarning
warnings.warn_explicit("ours", CryptographyDeprecationWarning, "ssh_server.py", 1,
                       module="soluna_tui.server.ssh.ssh_server")
warnings.warn_explicit("another's", DeprecationWarning, "dh.py", 1, module="asyncssh.crypto.dh")
"""
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "CryptographyDeprecationWarning: ours" in done.stderr
    assert "DeprecationWarning: another's" in done.stderr


async def test_a_diffie_hellman_client_adds_nothing_but_log_lines_to_the_servers_stderr(tmp_path) -> None:
    async with served(tmp_path, real_zygote=True) as server:  # its zygote's imports too
        options = client_options(kex_algs=["diffie-hellman-group14-sha256"])  # the only one it offers
        with warnings.catch_warnings():  # the client's own (this process's) are not what is tested: the server's
            warnings.simplefilter("ignore", CryptographyDeprecationWarning)
            async with asyncssh.connect("127.0.0.1", server.port, **options) as connection:
                result = await connection.run("", timeout=TIMEOUT, check=False)  # refused: no commands here
        assert result.exit_status != 0
        server.process.terminate()
        await server.process.wait()
    assert server.log and [line for line in server.log if not LOG_LINE.match(line)] == []
