"""Runs in the server process.

The server's host key: an ed25519 key made on first start (mode 0600), then the same one for good.

A key file that exists but cannot be read is never replaced: clients would see
a changed host key, so the operator decides. Like OpenSSH, a key file of ours
that other users may read (or write) is refused: anyone who read it could pose
as this server.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ...local.files import write_atomically
from .quiet_asyncssh import asyncssh


class HostKeyError(ValueError):
    """The host key file exists but cannot be used, or cannot be created."""


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The key in ``path``; a new ed25519 key written there first when there is none."""
    if path.exists():
        _check_private(path)
        try:
            return asyncssh.read_private_key(path)
        except (OSError, asyncssh.KeyImportError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise HostKeyError(f"cannot read the host key {path}: {reason}; "
                               "fix it or move it away to make a new one") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="soluna serve")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, key.export_private_key().decode("ascii"))
        os.chmod(path, 0o600)
    except OSError as error:
        raise HostKeyError(f"cannot write the host key {path}: {error.strerror or error}") from None
    return key


def _check_private(path: Path) -> None:
    """Refuse a key file we own that group or others may use, as sshd does (``bad permissions``)."""
    try:
        status = path.stat()
    except OSError:
        return  # reading it will say what is wrong
    mode = stat.S_IMODE(status.st_mode)
    if status.st_uid == os.getuid() and mode & 0o077:
        raise HostKeyError(f"the host key {path} is open to other users (mode {mode:04o}): "
                           f"run 'chmod 600 {path}' and start again")
