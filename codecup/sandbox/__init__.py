"""Containment of bot programs: cgroups, namespaces, a read-only view, limits (see docs/security.md)."""

from codecup.sandbox.box import Box, Policy, Provision
from codecup.sandbox.cgroup import CgroupFailed, Limits
from codecup.sandbox.support import Support, machine_support

__all__ = ["Box", "CgroupFailed", "Limits", "Policy", "Provision", "Support", "machine_support"]
