"""Simulation: the game driver for bots, duplicate round-robin tournaments, ratings and reports."""

from muggins.sim.driver import DealChance, GameResult, SeatStats, play_game, run
from muggins.sim.tournament import Config, Task, run_task, run_tasks, run_tournament, summarize

__all__ = ["Config", "DealChance", "GameResult", "SeatStats", "Task", "play_game", "run", "run_task",
           "run_tasks", "run_tournament", "summarize"]
