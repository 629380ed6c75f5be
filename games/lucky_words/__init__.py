"""Lucky Words (CodeCup 2004) and its Word Racer dialogue."""
