// The related games (Batak, Snarples, Donut, Horsethief) at a web table: one generic screen over
// the game view the server sends, for 3 to 8 seats. Like the Call Break table, it only shows the
// seat's own view and sends the actions listed as legal in it.

import { cardLabel, cardSvg, sortHand, SUITS } from "/static/cards.js";

// What "not playing this hand" is called in each game.
const OUT_WORDS = { snarples: "Sit out", donut: "Drop", horsethief: "Stay out" };
const PHASE_TEXT = {
  deal: "Dealing", auction: "Bidding", trump: "Naming trump", join: "Play or sit out",
  exchange: "Exchanging cards", settle: "Bidder's choice", play: "Playing", over: "Game over",
};

export function describeGameAction(a, names) {
  const who = a.seat !== undefined && names ? `${names[a.seat]} ` : "";
  if (a.type === "play") return `${who}play the ${cardLabel(a.card)}`;
  if (a.type === "bid") return `${who}bid ${a.tricks}`;
  if (a.type === "pass") return `${who}pass`;
  if (a.type === "trump") return `${who}name ${SUITS[a.suit]} trump`;
  if (a.type === "join") return `${who}${a.playing ? "play the hand" : "sit this hand out"}`;
  if (a.type === "exchange") return `${who}exchange ${a.cards ? a.cards.length : a.count} card(s)`;
  if (a.type === "settle") return `${who}${a.penalize_others ? "give each other player +5" : "take -5"}`;
  return a.type;
}

function seatInfo(v, seat) {
  // One line on the seat's part in this hand: bid or pass, in or out, exchanges.
  const bits = [];
  if (!v.in_game[seat]) return "out of the game";
  if (v.bids[seat] !== null) bits.push(`bid ${v.bids[seat]}`);
  else if (v.passed[seat]) bits.push("passed");
  if (v.declarer === seat && v.contract !== null) bits.push(`contract ${v.contract}`);
  if (v.joined[seat] === true) bits.push("in");
  else if (v.joined[seat] === false) bits.push("out");
  if (v.exchanged[seat] !== null) bits.push(`took ${v.exchanged[seat]}`);
  if (v.phase === "play" && !v.active[seat]) bits.push("not playing");
  return bits.join(" · ");
}

export function gameScoreTable(h, names, results, scores) {
  return h("div", { class: "table-wrap" }, h("table", { class: "scores", id: "game-scores" },
    h("thead", {}, h("tr", {}, h("th", {}, "Hand"), names.map((n) => h("th", {}, n)))),
    h("tbody", {}, results.map((r) => h("tr", { title: r.note || "" }, h("td", {}, r.number),
      r.points.map((p, s) => h("td", {}, r.active[s] ? `${r.won[s]} tr → ${p > 0 ? "+" : ""}${p}` : `– ${p ? p : ""}`))))),
    h("tfoot", {}, h("tr", {}, h("td", {}, "Score"), scores.map((t) => h("td", {}, t))))));
}

// Draws the table for a related game into ctx.root. ctx: { h, root, state, act, send, hint,
// picked (a Set of cards chosen for an exchange), rerender, showScores }.
export function renderRelatedGame(ctx) {
  const { h, state, act, send, hint, picked } = ctx;
  const v = state.view;
  const t = state.table;
  const me = state.you;
  const names = t.seats.map((s) => s.name);
  const myTurn = me !== null && v.to_act === me && v.phase !== "over";

  const order = [...Array(v.players).keys()];
  const mine = me === null ? order : [...order.slice(me + 1), ...order.slice(0, me + 1)];  // you last
  const seatBox = (seat) => {
    const s = t.seats[seat];
    return h("div", { class: `seat gseat ${v.to_act === seat ? "turn" : ""} ${v.in_game[seat] ? "" : "gone"}`, "data-seat": seat },
      h("div", { class: "name", title: s.name }, s.name, seat === me ? " (you)" : "", s.kind === "bot" ? h("span", { class: "bot-mark", title: "a bot", "aria-label": "bot" }, " ⚙") : ""),
      h("div", { class: "tricks-count" }, `${v.won[seat]} trick${v.won[seat] === 1 ? "" : "s"}`, v.dealer === seat ? " · dealer" : ""),
      h("div", { class: "seat-info" }, seatInfo(v, seat)),
      h("div", {}, `score ${v.scores[seat]}`, v.streak[seat] ? ` · out ${v.streak[seat]}×` : ""),
      s.connected ? null : h("div", { class: "away" }, "away"),
      s.faults ? h("div", { class: "away faults", title: s.last_fault }, `${s.faults} bot fault${s.faults === 1 ? "" : "s"}`) : null,
      seat !== me ? h("div", { class: "muted-light" }, `${v.hand_sizes[seat]} card${v.hand_sizes[seat] === 1 ? "" : "s"}`) : null);
  };

  const trick = h("div", { class: "gtrick", id: "trick", "aria-label": "Cards on the table" },
    v.trick.map((c, i) => h("div", { class: "gplayed", "data-card": c }, cardSvg(c), h("div", {}, names[v.trick_seats[i]]))));
  if (!v.trick.length && v.tricks.length && (v.phase === "play" || v.phase === "over")) {
    const last = v.tricks[v.tricks.length - 1];
    last.cards.forEach((c, i) => trick.append(h("div", { class: "gplayed last", "data-last-card": c }, cardSvg(c),
      h("div", {}, names[last.seats[i]]))));
    trick.append(h("div", { class: "glead-note" }, `${names[last.winner]} won the last trick`));
  }

  // The hand: legal cards raised in play; in the exchange, cards toggle in and out of the discard.
  const legalCards = new Set(v.legal.filter((a) => a.type === "play").map((a) => a.card));
  const exchanging = v.legal.some((a) => a.type === "exchange");
  const hintCard = hint && hint.action.type === "play" ? hint.action.card : null;
  const hand = v.hand ? sortHand(v.hand) : [];
  const handRow = h("div", { class: "hand", id: "hand", role: "group", "aria-label": "Your hand" },
    hand.map((c) => {
      const legal = legalCards.has(c) || exchanging;
      const chosen = exchanging && picked.has(c);
      return h("button", { class: `card ${legal ? "legal" : myTurn && v.phase === "play" ? "illegal" : ""} ${chosen ? "selected" : ""} ${hintCard === c ? "hinted" : ""}`,
                           "data-card": c, "aria-pressed": exchanging ? String(chosen) : null,
                           "aria-label": cardLabel(c) + (legalCards.has(c) ? " (playable)" : ""),
                           "aria-disabled": legal ? null : "true", tabindex: legal ? null : "-1",
                           onclick: () => {
                             if (exchanging) { if (picked.has(c)) picked.delete(c); else picked.add(c); ctx.rerender(); }
                             else if (legalCards.has(c)) act({ type: "play", card: c });
                           } }, cardSvg(c));
    }));

  // Every phase's controls, built from the legal actions the server listed.
  const controls = h("div", { class: "controls", id: "controls" });
  const bids = v.legal.filter((a) => a.type === "bid");
  if (bids.length) controls.append(h("span", {}, "Bid:"),
    ...bids.map((a) => h("button", { class: "bid", "data-bid": a.tricks, onclick: () => act(a) }, a.tricks)));
  for (const a of v.legal.filter((x) => x.type === "pass")) controls.append(h("button", { id: "pass", onclick: () => act(a) }, "Pass"));
  const trumps = v.legal.filter((a) => a.type === "trump");
  if (trumps.length) controls.append(h("span", {}, "Trump:"),
    ...trumps.map((a) => h("button", { class: "trump", "data-suit": a.suit, "aria-label": `Name ${a.suit} trump`, onclick: () => act(a) }, SUITS[a.suit])));
  for (const a of v.legal.filter((x) => x.type === "join")) {
    controls.append(h("button", { class: "join", "data-playing": String(a.playing), onclick: () => act(a) },
      a.playing ? "Play this hand" : OUT_WORDS[v.game] || "Sit out"));
  }
  if (exchanging) {
    const allowed = new Set(v.legal.filter((a) => a.type === "exchange").map((a) => [...a.cards].sort().join(",")));
    const key = [...picked].sort().join(",");
    const ok = allowed.has(key);
    controls.append(h("button", { id: "exchange", disabled: !ok, onclick: () => {
      const cards = [...picked];
      picked.clear();
      act({ type: "exchange", cards });
    } }, picked.size ? `Exchange ${picked.size} card${picked.size > 1 ? "s" : ""}` : "Keep my hand"),
    h("span", { class: "muted-light" }, "Pick the cards to throw away, then exchange."));
  }
  for (const a of v.legal.filter((x) => x.type === "settle")) {
    controls.append(h("button", { class: "settle", "data-penalize": String(a.penalize_others), onclick: () => act(a) },
      a.penalize_others ? "Give each other player +5" : "Take −5 myself"));
  }
  if (myTurn && v.legal.length) controls.append(h("button", { id: "hint", onclick: () => send({ type: "hint" }) }, "Hint"));
  const hintText = h("div", { class: "hint-text", id: "hint-text" },
    hint ? `Hint (${hint.bot}): ${describeGameAction(hint.action)} — ${hint.reason}` : "");

  const turnText = v.phase === "over" ? `Game over — ${v.winners.map((s) => names[s]).join(" and ")} win${v.winners.length > 1 ? "" : "s"}`
    : v.to_act === me ? "Your turn" : v.to_act !== null && v.to_act >= 0 ? `${names[v.to_act]} to act` : "";
  const max = v.options.max_hands || v.options.deals;
  const status = h("div", { class: "status" },
    h("span", { id: "game-title" }, `${t.title} · hand ${v.hand_number}${max ? ` of ${max}` : ""}`),
    h("span", { id: "phase" }, PHASE_TEXT[v.phase] || v.phase),
    h("span", {}, v.trump ? `Trump ${SUITS[v.trump]}` : "No trump yet", v.low_high ? " · 2 high" : ""),
    v.upcard ? h("span", { class: "upcard" }, "Upcard ", h("span", { class: "mini-card" }, cardSvg(v.upcard))) : null,
    v.stock_size ? h("span", {}, `Stock ${v.stock_size}`) : null,
    h("span", { id: "turn" }, turnText), h("span", { class: "clock", id: "clock" }),
    h("button", { id: "show-scores", onclick: () => ctx.showScores(false) }, "Scores"));

  ctx.root.replaceChildren(h("div", { class: "felt related", "data-game": v.game },
    status, v.notice ? h("p", { class: "notice", id: "notice" }, v.notice) : null,
    h("div", { class: "gboard" }, h("div", { class: "gseats" }, mine.map(seatBox)), trick),
    handRow, controls, hintText,
    v.discards && v.discards.length ? h("p", { class: "muted-light" }, "You threw away: ", v.discards.map(cardLabel).join(", ")) : null));
}

// The scoreboard of a related game (after each hand and at the end).
export function relatedScoreboard(h, state, final, send) {
  const v = state.view;
  const t = state.table;
  const names = t.seats.map((s) => s.name);
  const isHost = state.you !== null && state.you === t.host_seat;
  const winners = v.winners.map((s) => names[s]).join(" and ");
  return h("div", { class: "panel", role: "dialog", "aria-label": "Scoreboard" },
    h("h2", {}, final ? `Game over — ${winners} win${v.winners.length > 1 ? "" : "s"}!` : `${t.title} scores`),
    v.low_wins ? h("p", { class: "muted" }, "The lowest score is best.") : null,
    gameScoreTable(h, names, v.results, v.scores),
    h("div", { class: "row" },
      h("button", { id: "close-scores" }, "Close"),
      final && isHost ? h("button", { class: "primary", id: "rematch", onclick: () => send({ type: "rematch" }) }, "Rematch") : null,
      final ? h("a", { href: `/history/${t.code}`, "data-link": true }, "Replay this game") : null,
      final ? h("a", { href: `/review/${t.code}`, "data-link": true, id: "review-link" }, "Review this game") : null));
}

// The replay of a finished related game: public views only, move by move.
export function relatedReplay(h, data, frame) {
  const v = frame.view;
  return [
    h("p", {}, h("strong", {}, `Hand ${v.hand_number}: `), describeGameAction(frame.action, data.seats)),
    h("div", { class: "felt" }, h("div", { class: "row" }, "Trick: ",
      (v.trick.length ? v.trick : (v.tricks.length && frame.action.type === "play" ? v.tricks[v.tricks.length - 1].cards : []))
        .map((c) => h("span", { class: "card", style: "margin-left:4px" }, cardSvg(c))))),
    gameScoreTable(h, data.seats, v.results, v.scores),
  ];
}
