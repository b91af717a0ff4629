  // The page's script, part 2 of 4 (see app.js): cards, the Mindbug board, the Mind Up! board, clauses.
  // -- cards --
  function keywordNames(mask) {
    return Object.entries(DATA.keywords).filter(([bit]) => mask & Number(bit)).map(([, n]) => n);
  }
  const ROMAN = { 1: "I", 2: "II", 3: "III" };
  function cardEl(id, opts) {
    const printed = (game.data.cards || {})[String(id)] || (opts.names || {})[String(id)] || ("card " + id);
    // An evolved creature shows the face of its stage (later.evolve).
    const name = opts.face || printed;
    const d = DATA.designs[name] || { power: null, keywords: 0, text: "" };
    const boosts = opts.boosts || [];
    const boostNames = boosts.map((b) => ((game.data.cards || {})[String(b)] || ("card " + b)) + " (" + b + ")");
    const power = opts.power !== undefined ? opts.power : d.power;
    const kws = keywordNames(opts.keywords !== undefined ? opts.keywords : d.keywords);
    const marked = opts.mark ? opts.mark.has(id) : game.marked.has(id);
    const stage = opts.stage && printed !== name ? "stage " + ROMAN[opts.stage] + " of " + printed : "";
    const boostWords = boosts.length ? boosts.length + " boost card" + (boosts.length > 1 ? "s" : "") +
      " under it: " + boostNames.join(", ") : "";
    const label = name + " (" + id + (stage ? ", " + stage : "") + "), power " + power +
      (kws.length ? ", " + kws.join(", ") : "") +
      (opts.exhausted ? ", exhausted" : "") + (opts.octonite ? ", " + opts.octonite + " Octonite" : "") +
      (boostWords ? ", " + boostWords : "") +
      (marked ? ", differs between log and rules" : "");
    const pw = el("span", { class: "power" + (power > d.power ? " up" : power < d.power ? " down" : ""),
      title: power !== d.power ? "printed power " + d.power : "power", text: String(power) });
    const card = el("div", { class: "card" + (opts.small ? " small" : "") + (opts.exhausted ? " exhausted" : "") +
      (marked ? " mark" : ""), role: "listitem", "aria-label": label, "data-card": id },
      el("div", { class: "ctop" }, el("span", { class: "name", text: name }), pw),
      el("div", { class: "kws" }, ...kws.map((k) => el("span", { class: "kw", text: k }))),
      el("div", { class: "text", text: d.text || "" }),
      opts.exhausted ? el("span", { class: "ex", text: "exhausted" }) : null,
      opts.octonite ? el("span", { class: "octo", title: "Octonite counters", text: opts.octonite + " Octonite" }) : null,
      stage ? el("span", { class: "stage", text: stage }) : null,
      boostWords ? el("span", { class: "boost", title: boostWords, text: "+" + boosts.length + " boost: " +
        boostNames.join(", ") }) : null,
      el("span", { class: "cid", text: "#" + id }));
    return card;
  }
  function zone(title, ids, opts, b) {
    const cards = el("div", { class: "cards", role: "list", "aria-label": title });
    const evolved = new Map(((b && b.evolved) || []).map((e) => [e[0], e]));
    const boosted = new Map(((b && b.boosts) || []).map((e) => [e[0], e[1]]));
    for (const c of ids) cards.append(Array.isArray(c) ?
      cardEl(c[0], { power: c[1], keywords: c[2], exhausted: !!c[3], octonite: c[4] || 0,
        stage: evolved.has(c[0]) ? evolved.get(c[0])[1] : 0, face: evolved.has(c[0]) ? evolved.get(c[0])[2] : "",
        boosts: boosted.get(c[0]) || [] }) : cardEl(c, opts || {}));
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + ids.length + ")" }), cards);
  }

  // -- the board --
  function side(b, p) {
    const stats = el("div", { class: "stats" },
      el("span", { class: "who", text: "Player " + p + (b.active === p && !b.over ? " (their turn)" : "") }),
      el("span", { text: "life " + b.life[p] }),
      el("span", { text: "Mindbugs " + b.mindbugs[p] }),
      el("span", { text: "draw pile " + b.deck[p] }),
      b.life_pile ? el("span", { text: "life cards " + b.life_pile[p] }) : null);
    return el("section", { class: "side p" + p + (b.active === p && !b.over ? " active" : ""),
      "aria-label": "Player " + p }, stats,
      zone("Player " + p + " play area", b.play[p], {}, b),
      zone("Player " + p + " hand", b.hand[p]),
      zone("Player " + p + " discard pile", b.discard[p], { small: true }));
  }
  function middle(b) {
    const m = el("div", { class: "middle", "aria-label": "Between the players" });
    m.append(el("div", { text: "Turn " + b.turn + " · unused pile " + b.unused }));
    if (b.played !== null && b.played !== undefined)
      m.append(el("div", {}, el("div", { class: "zname", text: "Waiting for the Mindbug decision" }),
        el("div", { class: "cards", role: "list" }, cardEl(b.played, {}))));
    if (b.set_aside && b.set_aside.length)
      m.append(zone("Set aside (double-sided cards of evolution lines)", b.set_aside, { small: true }));
    if (b.over) m.append(el("div", { class: "over", text: "Game over: player " + b.over.winner + " wins (" + b.over.reason + ")" }));
    const p = b.pending;
    if (p) {
      const who = p.player === null ? "The rules wait for a " : "Player " + p.player + "'s ";
      m.append(el("div", { class: "pending" },
        el("div", {}, el("strong", { text: who + (STAGES[p.stage] || p.stage) }), p.prompt ? " — " + p.prompt : "",
          " ", ...p.clauses.map(chip)),
        el("div", { class: "zname", text: "Legal options (" + p.options.length + ")" }),
        el("ul", { class: "opts" }, ...p.options.map((o) => el("li", { text: o })))));
    }
    return m;
  }
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
  function chip(cid) {
    const c = DATA.clauses[cid];
    return el("abbr", { class: "chip", title: c ? c.title + ": " + c.text : "clause " + cid, text: cid });
  }
  function clauseBlock(cid) {
    const c = DATA.clauses[cid];
    return el("div", { class: "clause" }, el("span", { class: "cid", text: cid }),
      c ? " — " + c.title + ". " + c.text : " (not in the catalogue)");
  }

