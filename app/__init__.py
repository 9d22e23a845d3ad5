"""IdeA — a desktop IDE for people who work through AI coding agents."""

__version__ = "0.1.0"
