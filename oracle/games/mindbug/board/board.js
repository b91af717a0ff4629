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
  const STAGES = { action: "turn action", mindbug: "Mindbug decision", frenzy: "FRENZY: a second attack or not",
    hunt: "HUNTER: the creature that must block", block: "block decision", choose: "choice for an effect",
    order: "order of the waiting effects", random: "random outcome" };
  BOARDS.mindbug = {
    draw: (b) => [side(b, 1), middle(b), side(b, 0)],
    result: (r) => "player " + r.winner + " wins (" + r.reason + ")",
    claimCard: cardEl,
  };
