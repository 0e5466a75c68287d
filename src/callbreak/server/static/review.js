// The review page (/review/CODE): asks the server for the review of a finished game (by the
// expert in Call Break, by the search bot in the related games),
// shows its progress while worker processes judge it, then each seat's accuracy, the key
// moments, every call and card with its judgement beside it, and a chart of each seat's running
// expected score (points given away so far) as an inline SVG. Judged from each seat's own view.

import { cardSvg } from "/static/cards.js";
import { fixed, num, personName, t } from "/static/i18n.js";

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];
const MARK = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", forced: "", "not judged": "" };
// Each judgement's word, in the reader's language (the review names them in English).
const LABEL = () => ({ best: t("best"), good: t("good"), inaccuracy: t("inaccuracy"), mistake: t("mistake"),
  blunder: t("blunder"), forced: t("forced"), "not judged": t("not judged") });
const signed = (v) => `${v >= 0 ? "+" : ""}${fixed(v, 2)}`;
// A call or a bid as the review names it ("call 3", "blind call 3", "bid 5"), in the reader's words.
function choiceText(text) {
  const m = /^(blind call|call|bid) (\d+)$/.exec(String(text));
  if (!m) return text;
  const tricks = Number(m[2]);
  return m[1] === "bid" ? t("bid {tricks}", { tricks }) : m[1] === "call" ? t("call {tricks}", { tricks }) : t("call {tricks} blind", { tricks });
}
const digitsOf = (word) => (/^\d+$/.test(word) ? num(Number(word)) : word);  // a call "3", not "blind 3"
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

// Each seat's running expected score: minus the points lost so far, after each decision.
export function runningSeries(review) {
  const totals = review.seats.map(() => 0);
  const series = review.seats.map(() => [0]);
  const judged = new Set(["best", "good", "inaccuracy", "mistake", "blunder"]);
  for (const d of review.decisions) {
    if (judged.has(d.label)) totals[d.seat] += d.lost;
    totals.forEach((t, s) => series[s].push(-t));
  }
  return series;
}

function chart(review) {
  const series = runningSeries(review);
  const starts = review.deal_starts || [];
  const w = 600, hgt = 220, pad = 34;
  const n = series[0].length - 1 || 1;
  const low = Math.min(-0.5, ...series.flat());
  const x = (i) => pad + (i / n) * (w - pad - 8);
  const y = (v) => 8 + (v / low) * (hgt - pad - 8);
  const root = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, id: "review-chart", role: "img",
    "aria-label": t("Each seat's running expected score over the game"), style: "width:100%;height:auto" });
  root.append(svg("line", { x1: pad, y1: y(0), x2: w - 8, y2: y(0), stroke: "#999" }),
    svg("text", { x: 2, y: y(0) + 4, "font-size": 11 }, num(0)),
    svg("text", { x: 2, y: y(low) + 4, "font-size": 11 }, fixed(low, 1)),
    svg("text", { x: pad, y: hgt - 6, "font-size": 11 }, review.judge && review.judge !== "expert"
      ? t("decisions →  (points given away against the {judge} bot's choices)", { judge: review.judge })
      : t("decisions →  (points given away against the expert's choices)")));
  // Where each deal starts: a faint line and its number, so a loss can be placed in its deal.
  starts.forEach((at, i) => {
    root.append(svg("line", { x1: x(at), y1: 8, x2: x(at), y2: hgt - pad, stroke: "#ddd", class: "deal-start" }),
      svg("text", { x: x(at) + 3, y: 18, "font-size": 10, fill: "#777" }, t("deal {number}", { number: i + 1 })));
  });
  series.forEach((s, seat) => {
    const d = s.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
    root.append(svg("path", { d, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2, class: "series" }));
  });
  return root;
}

function describe(d, seats) {
  const when = d.trick ? t("deal {deal}, trick {trick}", { deal: d.deal, trick: d.trick }) : t("deal {deal}, call", { deal: d.deal });
  return `${when}: ${seats[d.seat]}`;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const pretty = (card) => card.slice(0, -1).replace("T", "10") + (SUITS[card.slice(-1)] || card.slice(-1));

// The position the card was chosen in: the trick so far (or that the seat led) and its hand.
function position(h, d) {
  if (d.kind !== "play" && !(d.hand || []).length) return null;
  const parts = [];
  if (d.kind === "play") {
    const cards = d.trick_cards || [];
    const played = cards.map((c, i) => `${t("Seat {seat}", { seat: d.trick_seats[i] + 1 })} ${pretty(c)}`).join(", ");
    parts.push(cards.length ? t("trick so far: {cards}", { cards: played }) : t("leads"));
  }
  if ((d.hand || []).length) parts.push(t("hand: {cards}", { cards: d.hand.map(pretty).join(" ") }));
  return h("div", { class: "muted review-position" }, parts.join(" · "));
}

function decisionRow(h, d, seats) {
  const choice = d.kind === "play" ? h("span", { class: "card review-card" }, cardSvg(d.chosen)) : h("strong", {}, choiceText(d.chosen));
  // A "best" decision is within the search's noise of the top: no "better" beside it, no "−0.00".
  const better = d.better ? (d.kind === "play" ? h("span", {}, ` ${t("better:")} `, h("span", { class: "card review-card" }, cardSvg(d.better))) : h("span", {}, ` ${t("better:")} ${choiceText(d.better)}`)) : null;
  let detail = null;
  const top = d.top || Object.entries(d.values || {}).sort((a, b) => b[1] - a[1]).slice(0, 3);
  if (d.kind === "call" && d.tricks.length) {
    const likely = d.tricks.indexOf(Math.max(...d.tricks));
    detail = h("div", { class: "muted" }, t("tricks most likely {likely}; expected score by call:", { likely }), " ",
      top.map(([k, v]) => `${digitsOf(k.replace("call ", ""))}: ${signed(v)}`).join(", "));
  } else if (d.kind === "call" && top.length) {  // a related game's bid, trump, in or out, exchange
    detail = h("div", { class: "muted review-values" }, t("expected points by choice:"), " ",
      top.map(([k, v]) => `${k}: ${signed(v)}`).join(", "));
  }
  const lost = d.label !== "best" && d.lost >= 0.005 ? h("span", { class: "muted" }, ` −${fixed(d.lost, 2)}`) : null;
  return h("li", { class: `review-decision label-${d.label.replace(" ", "-")}`, "data-index": d.index, "data-label": d.label },
    h("span", { class: "review-when" }, describe(d, seats), " "), choice,
    h("span", { class: "review-label" }, ` ${MARK[d.label] || ""} ${LABEL()[d.label] || d.label}`),
    lost, better, detail, position(h, d));
}

export async function reviewPage(root, code, h, api) {
  const panel = h("div", { class: "panel", id: "review" }, h("h2", {}, t("Game review"), " ", code.replace(/(.{4})(?=.)/g, "$1-")),
    h("p", { class: "muted", id: "review-intro" }, t("Every decision judged by the strongest bot that plays the game from what that player could see at the time, never the hidden hands.")));
  const status = h("p", { id: "review-status" }, t("Asking for the review…"));
  const progress = h("progress", { id: "review-progress", max: 1, value: 0, style: "width:100%" });
  panel.append(status, progress);
  root.append(panel);
  let body;
  try {
    body = await api("POST", `/api/history/${code}/review`);
    while (body.status === "running") {
      status.textContent = t("Reviewing: {done} of {total} decisions judged", { done: body.done, total: body.total });
      progress.max = body.total; progress.value = body.done;
      await new Promise((r) => setTimeout(r, 400));
      body = await api("GET", `/api/history/${code}/review`);
    }
  } catch (x) {
    status.textContent = x.message; status.className = "error"; progress.remove(); return;
  }
  if (body.status !== "done") {
    status.textContent = body.message || t("The review is not available."); status.className = "error"; progress.remove(); return;
  }
  progress.remove();
  const review = body.review;
  const judge = review.judge || "expert";
  panel.querySelector("#review-intro").textContent = judge === "expert"
    ? t("Every call and card judged by the expert from what that player could see at the time, never the hidden hands.")
    : t("Every decision (bids, trumps, in or out, exchanges and cards) judged by the {judge} bot, the strongest that plays {game}, from what that player could see at the time, never the hidden hands: each choice played out to the end of the hand over deals the others could hold.", { judge, game: review.title || review.game });
  const seats = review.seats.map((name, s) => `${t("Seat {seat}", { seat: s + 1 })} · ${personName(name)}`);  // (the one way a seat is named: i18n/seats.py)
  status.textContent = "";
  const summary = h("table", { class: "scores", id: "review-summary" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", { title: t("the share of the points at stake kept: random play scores about {random}%, the expert about {expert}%", { random: 15, expert: 98 }) }, t("Accuracy")), h("th", {}, t("Points lost")), h("th", {}, t("Mistakes")), h("th", {}, t("Blunders")))),
    h("tbody", {}, review.summary.map((s) => h("tr", {},
      h("td", {}, h("span", { style: `color:${COLOURS[s.seat % COLOURS.length]}` }, "■ "), seats[s.seat]),
      h("td", {}, t("{percent}%", { percent: Math.round(s.accuracy) })), h("td", {}, fixed(s.lost, 2)),
      h("td", {}, num(s.counts.mistake)), h("td", {}, num(s.counts.blunder))))));
  const byIndex = new Map(review.decisions.map((d) => [d.index, d]));
  const key = review.key_moments.map((i) => byIndex.get(i));
  const deals = [...new Set(review.decisions.map((d) => d.deal))];
  const labels = LABEL();
  const thresholds = Object.entries(review.thresholds).map(([k, v]) => t("{label} up to {points}", { label: labels[k] || k, points: v })).join(", ");
  panel.append(summary, h("h3", {}, t("Running expected score")), chart(review),
    h("h3", {}, t("Key moments")),
    key.length ? h("ol", { id: "review-key" }, key.map((d) => decisionRow(h, d, seats))) : h("p", { class: "muted" }, t("No mistakes: well played.")),
    h("h3", {}, t("Every decision")),
    ...deals.map((deal) => h("details", { open: deal === deals[0] },
      h("summary", {}, t("Deal {number}", { number: deal })),
      h("ol", { class: "review-list" }, review.decisions.filter((d) => d.deal === deal).map((d) => decisionRow(h, d, seats))))),
    h("p", { class: "muted" }, t("Accuracy is the share of the points at stake a player kept: one less the points it lost over what a random legal choice would have lost on average at the same decisions (over Call Break arena games, random play scored about {random}%, beginner {beginner}%, heuristic {heuristic}%, the expert {expert}%).", { random: 15, beginner: 53, heuristic: 92, expert: 98 })),
    h("p", { class: "muted" }, t("Points lost: {thresholds}, blunder above.", { thresholds })),
    h("p", {}, h("a", { href: `/history/${code}`, "data-link": true }, t("Replay this game"))));
}
