"""The HTML report: every game as a board to step through, one
self-contained page (inline style and script, no network).

- `boards`: each game's board, through the registry (oracle.games: BOARD),
  which gives a game's steps, from the deal to the end, replayed through
  the rules (the board after each decision, its events and their clauses);
  `steps`: what the page reads of them.
- `page`: the page, rendered from the Jinja2 templates in `templates/`;
  `HtmlReport` takes the games of a run one at a time.
- `scenario`: the page of `mb-oracle scenarios`, a failing run as a game.
- `source`: the logs of a run, read again game by game for the boards.
- `command`: `mb-oracle show LOG`, the page for one game.
"""
