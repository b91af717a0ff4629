"""Scenarios: rulings written as YAML (format mb-scenario/1, see
spec/scenario-format.md), run against the engine in every edition they
apply to.

    from oracle.scenarios.loader import load_paths
    from oracle.scenarios.runner import run_all
    files, errors = load_paths(["scenarios"])   # ScenarioFile: scenarios + errors
    results = run_all(files)                     # Result per scenario x edition

This package knows no game: `loader` reads files and hands each document
to the scenario vocabulary of its game, `runner` runs each scenario by its
game's runner (oracle.games.<game>.scenarios, reached through the game
registry: the entry's SCENARIOS), `document` holds what every document has
(and the JSON Schema of them all), `result` and `report` the results,
`command` is `mb-oracle scenarios`, `pytest_plugin` makes them pytest
items. This module imports nothing, so loading the pytest plugin costs
nothing.
"""
