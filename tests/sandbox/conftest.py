"""Fixtures for the sandbox's tests: they need the full sandbox (root, cgroup2), or skip with a reason."""

from __future__ import annotations

import pytest

from codecup.sandbox import machine_support
from tests.support import lacking


@pytest.fixture
def full_sandbox():
    """Skip unless this machine gives the full sandbox; under CI=true that is a failure, not a skip."""
    support = machine_support()
    if not support.full:
        lacking(f"needs the full sandbox (root, cgroup2, namespaces): {support.summary()}")
    return support
