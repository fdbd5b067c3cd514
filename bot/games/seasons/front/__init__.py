"""Seasons's Discord front end: its command group and UI (``commands``), its pictures (``board``)."""
