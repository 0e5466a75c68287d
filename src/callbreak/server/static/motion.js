// Cards that move. The table is drawn afresh on every state the server sends, so a move is
// shown the FLIP way: note where the cards and seats were before the table is redrawn
// (cardPlaces), then start each card that is new in the trick where it came from, your hand or
// its player's seat, and let it travel to its place; a trick just won travels to its winner's
// seat and fades there (moveCards). Nothing moves for a player who asks for reduced motion.
// The elements this reads: #hand [data-card], #trick [data-card] / [data-last-card] with
// data-seat, #trick's data-winner, and each .seat[data-seat].

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
// A card from the hand or a seat to the trick; then a won trick is seen whole and gathered to
// its winner. The three add up to the bots' human pace (0.7 s), so the sweep is over by the
// time the winner, a bot, leads again.
const FLY_MS = 220;
const HOLD_MS = 220;
const SWEEP_MS = 260;

/** Where the hand's and the trick's cards are now, before the table is drawn again (null: no table yet). */
export function cardPlaces(root) {
  if (!root.querySelector("#trick")) return null;  // no table drawn yet: nothing moves in on a first look
  const places = new Map();
  for (const el of root.querySelectorAll("#hand [data-card]")) places.set(`hand:${el.dataset.card}`, el.getBoundingClientRect());
  for (const el of root.querySelectorAll("#trick [data-card]")) places.set(`trick:${el.dataset.card}`, el.getBoundingClientRect());
  for (const el of root.querySelectorAll("#trick [data-last-card]")) places.set(`last:${el.dataset.lastCard}`, el.getBoundingClientRect());
  return places;
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

// A transform that puts a card (now at ``to``) over ``from``, at from's size (times ``shrink``);
// ``base`` is the card's own transform (its place in the trick), kept first so the shift and the
// scale work on the card where it is drawn.
function over(from, to, shrink, base) {
  const a = centre(from), b = centre(to);
  const scale = shrink * (to.width ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1);
  return `${base} translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`;
}

function animate(el, keyframes, duration) {
  el.classList.add("moving");
  const run = el.animate(keyframes, { duration, easing: "ease-out" });
  const done = () => el.classList.remove("moving");
  run.onfinish = done;
  run.oncancel = done;
  return run;
}

/** After the table is drawn again: each card new in the trick travels from where it was. */
export function moveCards(root, before) {
  if (REDUCED.matches || !before || typeof Element.prototype.animate !== "function") return;
  const trick = root.querySelector("#trick");
  if (!trick) return;
  const seatRect = (seat) => {
    const box = root.querySelector(`.seat[data-seat="${seat}"]`);
    return box ? box.getBoundingClientRect() : null;
  };
  const winner = trick.dataset.winner !== undefined ? seatRect(trick.dataset.winner) : null;
  for (const el of trick.querySelectorAll("[data-card], [data-last-card]")) {
    const card = el.dataset.card || el.dataset.lastCard;
    const won = el.dataset.lastCard !== undefined;
    if (won && before.has(`last:${card}`)) continue;  // the last trick, already shown as won
    const style = getComputedStyle(el);
    const base = style.transform === "none" ? "" : style.transform;
    const to = el.getBoundingClientRect();
    const landed = { transform: `${base} translate(0px, 0px) scale(1)`, opacity: 1 };
    const stages = [];  // [keyframe, milliseconds from the start]
    let t = 0;
    const from = before.has(`trick:${card}`) ? null : before.get(`hand:${card}`) || seatRect(el.dataset.seat);
    if (from) {  // new on the table: from your hand, or from its player's seat
      stages.push([{ transform: over(from, to, 1, base), opacity: 1 }, 0]);
      t += FLY_MS;
      stages.push([landed, t]);
    }
    if (won && winner) {  // the whole trick is seen, then gathered into its winner's seat
      if (!stages.length) stages.push([landed, 0]);
      t += HOLD_MS;
      stages.push([landed, t]);
      t += SWEEP_MS;
      stages.push([{ transform: over(winner, to, 0.4, base), opacity: 0 }, t]);
    }
    if (stages.length < 2) continue;
    const run = animate(el, stages.map(([frame, at]) => ({ ...frame, offset: at / t })), t);
    if (won && winner) {
      const rest = style.opacity;  // back in its place, faded: the last trick stays in sight
      run.finished.then(() => { if (el.isConnected) animate(el, [{ opacity: 0 }, { opacity: rest }], 200); }, () => {});
    }
  }
}
