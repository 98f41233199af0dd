"""The terminal under the app: its size, how frames are written to it, keys read in order, drawing sets.

=====================  ===========================================================================
Module                 What it holds
=====================  ===========================================================================
sizes.py               the sizes the app lays out for (the least, the narrow class), ASCII wanted or not
driver.py              the app's driver: each frame written as the change from the style in effect; the cursor
                       shown where the app asks for it
key_order.py           keys that arrive together handled one after another
glyphs.py              the Unicode and ASCII drawing sets
=====================  ===========================================================================

``sizes.py`` imports nothing but the standard library: the server reads it too.
"""
