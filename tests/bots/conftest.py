"""Fixtures shared by the bot tests."""

from __future__ import annotations

import pytest

from callbreak.bots.kernel import Kernel, get_kernel


@pytest.fixture(scope="module")
def kernel() -> Kernel:
    """The numba kernel, compiled (or loaded from its cache) before any test times anything."""
    k = get_kernel("numba")
    k.warm_up()
    return k
