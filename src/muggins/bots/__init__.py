"""Bots that play any game of the protocol: random, greedy, heuristic, search (IS-MCTS), omniscient,
and the named levels beginner, casual, club and expert (skill plus an attention model)."""

from muggins.bots.attention import LEVEL_ATTENTION, PERFECT, Attention
from muggins.bots.base import Bot, BotError, Policy
from muggins.bots.bot import AttentiveBot
from muggins.bots.policies import GreedyPolicy, HeuristicPolicy, RandomPolicy
from muggins.bots.registry import LEVELS, SKILLS, bot_names, make_bot, parse_bot_name
from muggins.bots.search import SearchPolicy

__all__ = [
    "LEVELS", "LEVEL_ATTENTION", "PERFECT", "SKILLS", "Attention", "AttentiveBot", "Bot", "BotError",
    "GreedyPolicy", "HeuristicPolicy", "Policy", "RandomPolicy", "SearchPolicy", "bot_names", "make_bot",
    "parse_bot_name",
]
