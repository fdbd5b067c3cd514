"""Tug's Discord front end: its command group and UI, its picture."""
