"""Fixtures for the sandbox's tests: they need the full sandbox (root, cgroup2), or skip with a reason."""

from __future__ import annotations

import os

import pytest

from codecup.sandbox import machine_support


@pytest.fixture
def full_sandbox():
    """Skip unless this machine gives the full sandbox; under CI=true that is a failure, not a skip."""
    support = machine_support()
    if not support.full:
        message = f"needs the full sandbox (root, cgroup2, namespaces): {support.summary()}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return support
