"""Slash commands, one module per game (``/seasons``, ``/volfyrion``) and ``/game`` for what is common."""
