"""Whole card games (CARDS.md section 7): records, the engine, the players, self-play.

The card twin of :mod:`rummikub.tiles.game`, module for module: :mod:`.record` (the record
format, ``rummikub-cards-game/1``), :mod:`.engine` (the deal, the turn, "May I?", the
stock running out, the scores), :mod:`.view` (what a player knows), :mod:`.strategies`
(the players) and :mod:`.simulate` (self-play and its figures).
"""
