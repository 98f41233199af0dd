"""Fixtures the server's test modules share."""

from __future__ import annotations

from .test_hostile_clients import tiny_disk
from .test_lobby import make_lobby

__all__ = ["make_lobby", "tiny_disk"]
