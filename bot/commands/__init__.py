"""Slash commands: ``/game`` (what every game shares) and the parts every game's command group uses."""
