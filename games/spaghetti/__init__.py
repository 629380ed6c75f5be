"""Spaghetti (CodeCup 2022): place tiles, grow paths between the walls, score the long ones."""
