// What a screen reader says as the game goes on. The table is drawn afresh on every state, so it
// is kept out of the page's live region (app.js marks it aria-live="off": else each bot's move
// would read the whole table again); instead this says what changed, in a few words: who played
// which card, who won the trick, and that it is your turn.

import { cardName } from "/static/cards.js";
import { tableEvents } from "/static/events.js";
import { personName, t } from "/static/i18n.js";

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
  const name = (seat) => personName(after.table.seats[seat].name);
  const lines = events.played.map((p) => (p.seat === after.you
    ? t("You played the {card}.", { card: cardName(p.card) })
    : t("{name} played the {card}.", { name: name(p.seat), card: cardName(p.card) })));
  if (events.won !== null) {
    lines.push(events.won === after.you ? t("You won the trick.") : t("{name} won the trick.", { name: name(events.won) }));
  }
  if (events.yourTurn) lines.push(t("Your turn."));
  if (lines.length) speak(lines.join(" "));
}
