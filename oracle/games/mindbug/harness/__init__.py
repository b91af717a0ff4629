"""Mindbug's harness: where a game starts (`start`: a deal, a seed, a replay
log, a scenario, a protocol position), what the reference engine's game is
in the protocols' terms (`views`), decision-tree counts (`perft`; the verb's
work in `commands`, the registry's PERFT), conform's campaign of seeded
games (`conform`, the registry's CONFORM) played in lockstep (`lockstep`),
the scenario library played against an engine adapter (`scenario_run`), and
what conform does with a divergence: shrinking it (`shrink`), grouping
divergences into root causes (`roots`) and writing each as a replay log and
a draft scenario (`artifacts`), and the JSON Schemas of its protocols
(`schemas`).

The harness both games share stays in oracle/harness: the adapter's
processes and the client that talks to it (`adapter_process`,
`engine_client`), the command-line verbs that dispatch to a game
(`command`), conform's settings and what every campaign's
reports share (`conform`), lockstep's finding codes (`lockstep`), the
error of a start and the scenario loader (`start`), and, still holding
Mindbug's part beside the shared one, the service (`serve`) and the
protocols' structs (`protocol`, `engine_protocol`)."""
