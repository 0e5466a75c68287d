// The review page (/review/CODE): asks the server for the expert's review of a finished game,
// shows its progress while worker processes judge it, then each seat's accuracy, the key
// moments, every call and card with its judgement beside it, and a chart of each seat's running
// expected score (points given away so far) as an inline SVG. Judged from each seat's own view.

import { cardSvg } from "/static/cards.js";

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];
const MARK = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", forced: "", "not judged": "" };
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
  const w = 600, hgt = 220, pad = 34;
  const n = series[0].length - 1 || 1;
  const low = Math.min(-0.5, ...series.flat());
  const x = (i) => pad + (i / n) * (w - pad - 8);
  const y = (v) => 8 + (v / low) * (hgt - pad - 8);
  const root = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, id: "review-chart", role: "img",
    "aria-label": "Each seat's running expected score over the game", style: "width:100%;height:auto" });
  root.append(svg("line", { x1: pad, y1: y(0), x2: w - 8, y2: y(0), stroke: "#999" }),
    svg("text", { x: 2, y: y(0) + 4, "font-size": 11 }, "0"),
    svg("text", { x: 2, y: y(low) + 4, "font-size": 11 }, low.toFixed(1)),
    svg("text", { x: pad, y: hgt - 6, "font-size": 11 }, "decisions →  (points given away against the expert's choices)"));
  series.forEach((s, seat) => {
    const d = s.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
    root.append(svg("path", { d, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2, class: "series" }));
  });
  return root;
}

function describe(d, seats) {
  const when = d.trick ? `deal ${d.deal}, trick ${d.trick}` : `deal ${d.deal}, call`;
  return `${when}: ${seats[d.seat]}`;
}

function decisionRow(h, d, seats) {
  const choice = d.kind === "play" ? h("span", { class: "card review-card" }, cardSvg(d.chosen)) : h("strong", {}, d.chosen);
  const better = d.best !== d.chosen ? (d.kind === "play" ? h("span", {}, " better: ", h("span", { class: "card review-card" }, cardSvg(d.best))) : h("span", {}, ` better: ${d.best}`)) : null;
  let detail = null;
  if (d.kind === "call" && d.tricks.length) {
    const likely = d.tricks.indexOf(Math.max(...d.tricks));
    detail = h("div", { class: "muted" }, `tricks most likely ${likely}; expected score `,
      Object.entries(d.values).map(([k, v]) => `${k.replace("call ", "")}: ${v.toFixed(2)}`).join(", "));
  }
  return h("li", { class: `review-decision label-${d.label.replace(" ", "-")}`, "data-index": d.index, "data-label": d.label },
    h("span", { class: "review-when" }, describe(d, seats), " "), choice,
    h("span", { class: "review-label" }, ` ${MARK[d.label] || ""} ${d.label}`),
    d.lost > 0 ? h("span", { class: "muted" }, ` −${d.lost.toFixed(2)}`) : null, better, detail);
}

export async function reviewPage(root, code, h, api) {
  const panel = h("div", { class: "panel", id: "review" }, h("h2", {}, `Game review ${code}`),
    h("p", { class: "muted" }, "Every call and card judged by the expert from what that player could see at the time, never the hidden hands."));
  const status = h("p", { id: "review-status" }, "Asking for the review…");
  const progress = h("progress", { id: "review-progress", max: 1, value: 0, style: "width:100%" });
  panel.append(status, progress);
  root.append(panel);
  let body;
  try {
    body = await api("POST", `/api/history/${code}/review`);
    while (body.status === "running") {
      status.textContent = `The expert is reviewing: ${body.done} of ${body.total} decisions`;
      progress.max = body.total; progress.value = body.done;
      await new Promise((r) => setTimeout(r, 400));
      body = await api("GET", `/api/history/${code}/review`);
    }
  } catch (x) {
    status.textContent = x.message; status.className = "error"; progress.remove(); return;
  }
  if (body.status !== "done") {
    status.textContent = body.message || "The review is not available."; status.className = "error"; progress.remove(); return;
  }
  progress.remove();
  const review = body.review;
  const seats = review.seats;
  status.textContent = "";
  const summary = h("table", { class: "scores", id: "review-summary" },
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Accuracy"), h("th", {}, "Points lost"), h("th", {}, "Mistakes"), h("th", {}, "Blunders"))),
    h("tbody", {}, review.summary.map((s) => h("tr", {},
      h("td", {}, h("span", { style: `color:${COLOURS[s.seat % COLOURS.length]}` }, "■ "), s.name),
      h("td", {}, `${Math.round(s.accuracy)}%`), h("td", {}, s.lost.toFixed(2)),
      h("td", {}, String(s.counts.mistake)), h("td", {}, String(s.counts.blunder))))));
  const byIndex = new Map(review.decisions.map((d) => [d.index, d]));
  const key = review.key_moments.map((i) => byIndex.get(i));
  const deals = [...new Set(review.decisions.map((d) => d.deal))];
  panel.append(summary, h("h3", {}, "Running expected score"), chart(review),
    h("h3", {}, "Key moments"),
    key.length ? h("ol", { id: "review-key" }, key.map((d) => decisionRow(h, d, seats))) : h("p", { class: "muted" }, "No mistakes: well played."),
    h("h3", {}, "Every decision"),
    ...deals.map((deal) => h("details", { open: deal === deals[0] },
      h("summary", {}, `Deal ${deal}`),
      h("ol", { class: "review-list" }, review.decisions.filter((d) => d.deal === deal).map((d) => decisionRow(h, d, seats))))),
    h("p", { class: "muted" }, "Points lost: ", Object.entries(review.thresholds).map(([k, v]) => `${k} up to ${v}`).join(", "), ", blunder above."),
    h("p", {}, h("a", { href: `/history/${code}`, "data-link": true }, "Replay this game")));
}
