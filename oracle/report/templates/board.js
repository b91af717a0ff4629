  // The page's script, part 2 of 4 (see app.js): clauses, the registry of boards, and each game's cards and board.
  // Each game's script below adds its board to BOARDS under its name: draw(board) -> the board's elements,
  // result(result) -> the rules' result in words, and, where a claim's zones hold its cards, claimCard(id, opts).
  const BOARDS = {};
  function gameOf(d) { return d.game || (d.report && d.report.game) || DATA.default_game; }
  function boardOf(game) { return BOARDS[game] || BOARDS[DATA.default_game]; }
{# each game's part: the cards and the board, its board's SCRIPT (oracle.games: BOARD), in the registry's order #}
{% for script in board_scripts %}{{ script|safe }}{% endfor %}
  function chip(cid) {
    const c = DATA.clauses[cid];
    return el("abbr", { class: "chip", title: c ? c.title + ": " + c.text : "clause " + cid, text: cid });
  }
  function clauseBlock(cid) {
    const c = DATA.clauses[cid];
    return el("div", { class: "clause" }, el("span", { class: "cid", text: cid }),
      c ? " — " + c.title + ". " + c.text : " (not in the catalogue)");
  }

