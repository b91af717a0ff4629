"""Mindbug's replay vocabulary: the mb-replay/1 format (`format`, `lines`
decodes its lines), the verifier of a game (`verify`: the fast lane
`fastlane` for a game in the plain form, else `verifier`, which drives the
engine), what the verifier leans on (`claims` compares state claims, `diff`
says card by card how they differ, `attribution` names their clauses,
`places` keeps each place a claim lists once,
`narrate` says what the rules did and wait for, `decisions` accepts the
lines the rules allow where they ask nothing, `resync` resumes after a
divergence with keep_going, `fork` starts keep-going's replays under other
readings part way into a game), self-play (`selfplay`) and the canonical
form (`annotate`).

The machinery both games share stays in oracle/replay: reading streams
within limits (`reader`, `lines`, `linestarts`, `globs`, `limits`,
`twice`), the line base of every format (`lineform`), findings, verdicts
and reports (`findings`, `outcome`, `report`, `outputs`, `expect`),
rules-or-reading (`basis`), the dispatch of a game to its verifier
(`verify`, `annotate`), the runs (`run`, `command`, `progress`, `onhand`,
`parallel`, `jobs`, `shares`, `worker`, `cluster`) and the benchmarks
(`bench`, `counting`)."""
