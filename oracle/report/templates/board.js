  // The page's script, part 2 of 4 (see app.js): cards, the Mindbug board, the Mind Up! board, clauses.
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

