"""The game's decisions without the terminal: picking, coaching, the flow of a match, what the screen shows,
a match as text.

Nothing here imports Textual, so unit tests drive it without a pilot; the screens wire
these parts to widgets, workers and dialogs.
"""
