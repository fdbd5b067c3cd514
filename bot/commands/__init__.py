"""Slash commands, one module per game (named in its registry entry, bot/games) and ``/game`` for what is common."""
