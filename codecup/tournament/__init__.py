"""Tournaments: players files, schedules (round robin, gauntlet, Swiss, knock-out),
parallel execution, a resumable results log, standings and ratings."""

from codecup.tournament.players import PlayersFile, read_players
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.spec import TournamentSpec
from codecup.tournament.standings import Standings, compute_standings
from codecup.tournament.tournament import TournamentResult, run_tournament

__all__ = [
    "PlayersFile",
    "ScheduledGame",
    "Standings",
    "TournamentResult",
    "TournamentSpec",
    "compute_standings",
    "read_players",
    "run_tournament",
]
