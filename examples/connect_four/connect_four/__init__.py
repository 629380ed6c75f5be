"""Connect Four as a codecup game plugin: the example of docs/adding-a-game.md."""
