"""Post-game analysis: the expected points of every move (:mod:`.evaluate`) and the losses of each seat
in a recorded game, to its choices, its counting and the muggins rule (:mod:`.analyse`)."""

from muggins.analysis.analyse import Analysis, analyse_record
from muggins.analysis.evaluate import AnalysisError, MoveValue, rank_moves

__all__ = ["Analysis", "AnalysisError", "MoveValue", "analyse_record", "rank_moves"]
