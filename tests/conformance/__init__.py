"""The conformance suite: one generic test per property area, run on every registered game, preset, player
count and claim mode (``cases.py`` enumerates them from the registry; nothing here names a game).

One module per area: ``test_engine`` (legal and illegal moves, turn sets, ending, scores, clone, undo,
pieces), ``test_records`` (record round-trips), ``test_views`` (nothing leaks), ``test_hidden`` (sampling
the hidden information), ``test_golden`` (perft counts), ``test_interfaces`` (bots, tournament, records on
disk, terminal, server). A new property area (integer actions, typed views, ...) gets a module of its own
beside these, driven by the same cases.
"""
