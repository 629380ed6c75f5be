"""Containment of bot programs: cgroups, namespaces, a read-only view, limits (see docs/security.md)."""

from codecup.sandbox.box import Box, Policy
from codecup.sandbox.cgroup import Limits
from codecup.sandbox.support import Support, machine_support

__all__ = ["Box", "Limits", "Policy", "Support", "machine_support"]
