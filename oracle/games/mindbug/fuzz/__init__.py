"""Mindbug's part of `mb-oracle fuzz`: its targets (targets.py, the
registry entry's FUZZ), reached through the registry as Mind Up!'s are.

The split: the run, the checks every target shares (in process and through
the command line), reading seed files, the strategies that break replay
lines and YAML files (with a game's vocabulary), progress, and the targets
of hostile streams and undecodable names stay in oracle.fuzz; Mindbug's
seed corpus (corpus.py), its words and line vocabulary (words.py,
lines.py), its card files, expectation and card file checks, big claims,
hostile text and names, service sessions, engine adapters and hostile
surroundings live here.
"""
