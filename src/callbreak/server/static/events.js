// What a new state brought, against the one shown before it: the cards played since (with
// their seats), the seat that won a trick, and whether it has just become your turn. The sounds
// (sound.js) and the screen reader's words (announce.js) both follow these.

// Every card played this deal, with its seat, in order (seats read as app.js's trickSeats does).
function plays(v) {
  const n = v.hand_sizes.length;
  const done = v.tricks.flatMap((t) => t.cards.map((card, i) => ({ card, seat: t.seats ? t.seats[i] : (t.leader + i) % n })));
  return [...done, ...v.trick.map((card, i) => ({ card, seat: v.trick_seats[i] }))];
}

const yourTurn = (s) => s.you !== null && s.view.to_act === s.you && s.view.phase !== "over" && s.view.legal.length > 0;

/** { played: [{ seat, card }], won: seat or null, yourTurn } — null on a first look or another table. */
export function tableEvents(before, after) {
  if (!before || !before.view || !after.view || before.table.code !== after.table.code) return null;
  const was = before.view, now = after.view;
  const earlier = plays(was), latest = plays(now);
  const sameDeal = latest.length >= earlier.length && now.tricks.length >= was.tricks.length;
  return {
    played: sameDeal ? latest.slice(earlier.length) : [],
    won: sameDeal && now.tricks.length > was.tricks.length ? now.tricks[now.tricks.length - 1].winner : null,
    yourTurn: yourTurn(after) && !(yourTurn(before) && was.phase === now.phase),
  };
}
