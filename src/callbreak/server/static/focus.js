// The keyboard's place survives a redraw. The table is drawn afresh on every state the server
// sends, which would drop the focus to the page's start each time a bot plays: note what had
// the focus (focusKey), and give it back to the same control in the new table (keepFocus) —
// the same button; in the hand, the card chosen with the arrow keys, else the same card, else the first playable.

/** What has the focus, as a selector that finds it again in the redrawn table (null: nothing there). */
export function focusKey(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  let key = el.tagName.toLowerCase() + (el.id ? `#${CSS.escape(el.id)}` : "");
  for (const { name, value } of el.attributes) {
    if (name.startsWith("data-")) key += `[${name}="${CSS.escape(value)}"]`;
  }
  return { key, inHand: Boolean(el.closest("#hand")) };
}

/** After the redraw: focus that control again, if the focus was lost with the old table. */
export function keepFocus(root, before) {
  if (!before) return;
  const el = document.activeElement;
  if (el && el !== document.body && root.contains(el)) return;
  let target = root.querySelector(before.key);
  if (before.inHand) {
    target = root.querySelector("#hand .card.selected") || target || root.querySelector("#hand .card.legal");
  }
  if (target) target.focus({ preventScroll: true });
}
