"""pyramid-referee: a voice referee and call checker for the 71-point Russian pyramid.

The shell ties together ``grammar`` (the call language), ``rules`` (the rules
engine) and ``voice`` (audio, Vosk, strikes); only the shell knows all three.
"""

__version__ = "0.1.0"
