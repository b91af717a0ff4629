"""Mindbug's part of `mb-oracle fuzz`: its targets (targets.py, the
registry entry's FUZZ), reached through the registry as Mind Up!'s are.

The split: the run, the checks every target shares (in process and through
the command line), the seed corpus, the strategies that break replay lines
and YAML files, progress, and the targets of hostile streams, surroundings
and undecodable names stay in oracle.fuzz; what names Mindbug's cards, its
engine adapters or its service sessions lives here.
"""
