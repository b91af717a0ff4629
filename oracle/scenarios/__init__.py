"""Scenarios: rulings written as YAML (format mb-scenario/1, see
spec/scenario-format.md), run against the engine in every edition they
apply to.

    from oracle.scenarios.loader import load_paths
    from oracle.scenarios.runner import run_all
    files, errors = load_paths(["scenarios"])   # ScenarioFile: scenarios + errors
    results = run_all(files)                     # Result per scenario x edition

`format` holds the structs (and the JSON Schema), `loader` reads files,
`runner` plays them, `report` renders results, `command` is
`mb-oracle scenarios`, `pytest_plugin` makes them pytest items. This module
imports nothing, so loading the pytest plugin costs nothing.
"""
