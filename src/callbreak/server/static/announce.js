// What a screen reader says as the game goes on. The table is drawn afresh on every state, so it
// is kept out of the page's live region (app.js marks it aria-live="off": else each bot's move
// would read the whole table again); instead this says what changed, in a few words: who played
// which card, who won the trick, and that it is your turn.

import { cardName } from "/static/cards.js";
import { tableEvents } from "/static/events.js";

let region = null;

function speak(text) {
  if (!region) {
    region = document.createElement("div");
    region.id = "announcer";
    region.className = "visually-hidden";
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  region.textContent = text;
}

/** Say what a new state changed against the one shown before it (nothing on a first look). */
export function announce(before, after) {
  const events = tableEvents(before, after);
  if (!events) return;
  const lines = events.played.map((p) => (p.seat === after.you
    ? `You played the ${cardName(p.card)}.` : `${after.table.seats[p.seat].name} played the ${cardName(p.card)}.`));
  if (events.won !== null) lines.push(events.won === after.you ? "You won the trick." : `${after.table.seats[events.won].name} won the trick.`);
  if (events.yourTurn) lines.push("Your turn.");
  if (lines.length) speak(lines.join(" "));
}
