"""The board in the browser (`mb-oracle board`): a local server on which a
rules team sets up a position of either game, plays it against the
reference engine and saves it as a ruling (an mb-scenario/1 file).

`server` is the web application (its routes, the token, the limits),
`bodies` the JSON bodies it reads, `play` drives a game through the
service of `mb-oracle serve` (oracle.harness.serve) from a position held in
memory, `files` reads and writes the scenario folders named on the command
line, `logs` starts a position from a game of the `--log` file, and
`command` is the click command. Each game's part is its registry
entry's BOARD_EDIT; `page/` holds the page's generic part. Starlette and
uvicorn are the optional extra `mb-oracle[board]`.
"""
