"""codecup: a framework for CodeCup-style bot competitions.

The framework knows no game by name: games register themselves through the
``codecup`` entry-point group (see :mod:`codecup.hookspecs`).
"""

__version__ = "0.1.1"
