"""Pillars (CodeCup 2009): fill rectangles of empty fields; whoever fills the last field loses."""
