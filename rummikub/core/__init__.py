"""What both game domains use: errors, reading documents, time limits and linear programs.

Nothing here knows a tile or a card: ``rummikub.tiles`` and ``rummikub.cards`` build on it,
and it imports neither.
"""
