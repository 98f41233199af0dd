"""Our own deprecations fail the tests; other libraries' warnings about their own code do not (pyproject.toml's
``filterwarnings``, applied by pytest to every test)."""

from __future__ import annotations

import warnings

import pytest

DEPRECATIONS = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)
#: A library's function that warns its caller, as deprecated functions do (``stacklevel=2``).
LIBRARY = """
import warnings

def old(category):
    warnings.warn("old() is deprecated", category, stacklevel=2)
"""
#: Code that calls it.
CALLER = "def use(old, category):\n    old(category)\n"


def module_named(name: str, code: str) -> dict:
    """``code`` run as if it were the module ``name``: warnings blame its lines on ``name``."""
    namespace = {"__name__": name}
    exec(compile(code, f"<{name}>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("category", DEPRECATIONS)
@pytest.mark.parametrize("module", ["soluna_tui", "soluna_tui.screens.game", "tests.app.test_match_flow"])
def test_a_deprecated_call_in_our_code_is_an_error(module, category) -> None:
    old = module_named("textual.widgets.example", LIBRARY)["old"]
    use = module_named(module, CALLER)["use"]
    with pytest.raises(category, match="old"):
        use(old, category)


@pytest.mark.parametrize("category", DEPRECATIONS)
def test_a_deprecation_our_code_raises_itself_is_an_error(category) -> None:
    with pytest.raises(category):
        warnings.warn_explicit("going away", category, "files.py", 1, module="soluna_tui.local.files")


@pytest.mark.parametrize("module", ["textual.widgets.example", "soluna_tuition", "testsuite.helpers"])
def test_a_deprecation_inside_another_library_stays_a_warning(module) -> None:
    old = module_named("textual.widgets.example", LIBRARY)["old"]
    use = module_named(module, CALLER)["use"]
    with warnings.catch_warnings(record=True) as caught:  # the filters as they are: an error would raise here
        use(old, DeprecationWarning)
    assert [str(warning.message) for warning in caught] == ["old() is deprecated"]
