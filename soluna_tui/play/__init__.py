"""The game's decisions without the terminal: picking, coaching and what the screen shows.

Nothing here imports Textual, so unit tests drive it without a pilot; the screens wire
these parts to widgets, workers and dialogs.
"""
