"""A plugin that cannot be imported."""

import codecup_no_such_module  # noqa: F401
