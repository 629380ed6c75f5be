"""Turn Right (CodeCup 2006): place 18 pieces each on a 6x6 board, then rotate them along circuits."""
