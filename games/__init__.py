"""The built-in games, imported as ``codecup_games.<game>`` (each a plugin package in its own folder)."""
