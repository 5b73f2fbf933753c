"""The game layer: what a game is, and the algorithms written once over it.

Both domains' whole games plug in here, in the way OpenSpiel separates a game from the
algorithms that play it: :mod:`rummikub.play.protocol` says what a game is (the state, the
player to move, a player's view and what it hides, the turns, the end and its scores,
determinizing a view), :mod:`rummikub.tiles.game.plugin` and
:mod:`rummikub.cards.game.plugin` implement it, and the modules here (self-play, duels,
records, the play loop, the strategy registry, determinized Monte Carlo, the review) are
written once over it. Nothing here knows a tile or a card.
"""
