"""What a fresh interpreter has imported after running some code: how the tests check which layer
loads which (the rules without Textual, the game without the server...)."""

from __future__ import annotations

import json
import subprocess
import sys


def modules_after(code: str) -> list[str]:
    """The names in ``sys.modules`` of a fresh interpreter once ``code`` has run, sorted."""
    script = f"{code}\nimport json as _json, sys as _sys\nprint(_json.dumps(sorted(_sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.splitlines()[-1])
