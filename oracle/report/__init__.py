"""The HTML report: every game as a board to step through, one
self-contained page (inline style and script, no network).

- `steps`: a game's steps, from the deal to the end, replayed through the
  rules (the board after each decision, its events and their clauses).
- `page`: the page, rendered from the Jinja2 templates in `templates/`;
  `HtmlReport` takes the games of a run one at a time.
- `command`: `mb-oracle show LOG`, the page for one game.
"""
