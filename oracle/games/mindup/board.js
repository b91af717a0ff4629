  // -- the board of a game of Mind Up! (players lettered A, B, ... as the rules name them) --
  const MU = DATA.mind_up || { cards: {}, objectives: {} };
  function muWho(p) { return "Player " + String.fromCharCode(65 + p); }
  function muCard(n, extra) {
    const c = MU.cards[String(n)] || ["?", 0];
    const bubble = c[1] ? (c[1] > 0 ? "+" : "") + c[1] : "";
    const marked = game.marked.has(n);
    return el("div", { class: "mucard mu-" + c[0] + (marked ? " mark" : ""), role: "listitem", "data-card": n,
      "aria-label": "card " + n + ", " + c[0] + (bubble ? ", bubble " + bubble : "") + (extra ? ", " + extra : "") +
        (marked ? ", differs between log and rules" : "") },
      el("span", { class: "num", text: String(n) }),
      bubble ? el("span", { class: "bub" + (c[1] > 0 ? " plus" : " minus"), text: bubble }) : null,
      extra ? el("span", { class: "who", text: extra }) : null);
  }
  function muCards(title, cards) {
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + cards.length + ")" }),
      el("div", { class: "mucards", role: "list", "aria-label": title }, ...cards.map((n) => muCard(n))));
  }
  function muBoard(b) {
    const root = el("div", { class: "muboard", "aria-label": "Mind Up! board" });
    const objs = b.objectives.map((o) => { const x = MU.objectives[String(o)] || ["?", 0, ""];
      return "objective " + o + " (" + x[0] + ", " + (x[1] > 0 ? "+" : "") + x[1] + "): " + x[2]; });
    root.append(el("div", { class: "muhead" },
      el("span", { text: b.round ? "Round " + b.round + " · turn " + b.turn : "Before round 1" }),
      el("span", { text: "Score order " + (b.order.length ? b.order.join("-") : "not drawn yet") }),
      b.pile !== null ? el("span", { text: "pile " + b.pile }) : null),
      ...objs.map((t) => el("div", { class: "muobj", text: t })));
    const line = el("div", { class: "muline", role: "list", "aria-label": "The line and the cards played this turn" });
    b.line.forEach((n, k) => {
      const u = b.under[k];
      line.append(el("div", { class: "muslot", role: "listitem" }, muCard(n),
        u ? muCard(u[0], muWho(u[1])) : el("div", { class: "mucard empty", "aria-hidden": "true" })));
    });
    root.append(el("div", { class: "zone" }, el("div", { class: "zname", text: b.under.length ?
      "The line, and under it the cards played this turn (each took the line card above it)" : "The line" }), line));
    if (b.winners) root.append(el("div", { class: "over", text: "Game over: " + (b.winners.length > 1 ?
      "a shared victory of " : "the winner is ") + b.winners.map(muWho).join(", ") }));
    else if (b.pending.kind === "choose") root.append(el("div", { class: "pending", text: "Waiting for a card from " +
      b.pending.players.map(muWho).join(", ") }));
    else if (b.pending.kind === "round") root.append(el("div", { class: "pending", text: "Waiting for round " +
      (b.round + 1) + " to start (its Score order)" }));
    for (let p = 0; p < b.players; p++) {
      const cols = el("div", { class: "mucols", role: "list", "aria-label": muWho(p) + " Score columns" });
      let sum = 0;
      b.columns[p].forEach((col, i) => {
        const v = b.order.length ? b.order[i] : null;
        if (v !== null) sum += v * col.length;
        cols.append(el("div", { class: "mucol", role: "listitem", "aria-label": "Score card " + (i + 1) +
          (v !== null ? ", value " + v : "") + ", " + col.length + " cards" },
          el("div", { class: "muval", text: v !== null ? "×" + v + " = " + v * col.length : "Score card " + (i + 1) }),
          el("div", { class: "mucards", role: "list" }, ...col.map((n) => muCard(n)))));
      });
      const rounds = b.scores[p];
      root.append(el("section", { class: "muplayer", "aria-label": muWho(p) },
        el("div", { class: "stats" }, el("span", { class: "who", text: muWho(p) }),
          el("span", { text: "rounds " + (rounds.length ? rounds.join(" + ") : "none yet") }),
          el("span", { text: "game score " + b.totals[p] }),
          b.order.length ? el("span", { text: "columns now " + sum }) : null,
          b.chosen[p] ? el("span", { class: "chosen", text: "has chosen" }) : null),
        cols, muCards(muWho(p) + " hand", b.hands[p])));
    }
    return root;
  }
  BOARDS["mind-up"] = {
    draw: (b) => [muBoard(b)],
    result: (r) => r.winners.map(muWho).join(" and ") + (r.winners.length > 1 ? " share the victory" : " wins") +
      " (" + r.scores.join(", ") + ")",
  };
