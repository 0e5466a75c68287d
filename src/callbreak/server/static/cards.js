// Playing cards drawn as SVG, written for this project. Four-colour suits keep every card
// legible at a glance on a small screen: spades black, hearts red, clubs green, diamonds blue.

import { t } from "/static/i18n.js";

export const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
export const SUIT_COLOURS = { S: "#1b1b1f", H: "#c8102e", C: "#137a35", D: "#1c4fc4" };
const RANK_ORDER = "23456789TJQKA";

export function parseCard(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank, suit, text };
}

export function rankValue(rank) {
  return RANK_ORDER.indexOf(rank === "10" ? "T" : rank);
}

/** Sort for display: spades, hearts, clubs, diamonds; high to low inside a suit. */
export function sortHand(cards) {
  const order = "SHCD";
  return [...cards].sort((a, b) => {
    const ca = parseCard(a), cb = parseCard(b);
    return order.indexOf(ca.suit) - order.indexOf(cb.suit) || rankValue(cb.rank) - rankValue(ca.rank);
  });
}

const RANK_WORDS = { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SUIT_WORDS = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };

/** A card as the reader's language says it: "king of spades", "हुकुमको बादशाह", "पान की बेगम".
 * Each card is a whole message of the "cards" catalog (the terminal's too), since languages
 * join rank and suit differently (Hindi's की for a queen, का for a king). */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  const english = `${RANK_WORDS[rank]} of ${SUIT_WORDS[suit]}`;
  return t(english);
}

/** A suit's name in the reader's language ("spades"). */
export function suitName(suit) {
  return { S: t("spades"), H: t("hearts"), C: t("clubs"), D: t("diamonds") }[suit];
}

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG face of ``text`` (e.g. "10H"); 100 x 140 user units, scaled by CSS. */
export function cardSvg(text) {
  const { rank, suit } = parseCard(text);
  const colour = SUIT_COLOURS[suit];
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-face", role: "img",
                          "aria-label": cardName(text) });
  svg.appendChild(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf8",
                               stroke: "#9a9488", "stroke-width": 2 }));
  const corner = (x, y, rotate) => {
    const g = el("g", { transform: `translate(${x} ${y})${rotate ? " rotate(180)" : ""}`, fill: colour });
    g.appendChild(el("text", { x: 0, y: 0, "font-size": rank === "10" ? 24 : 28, "font-weight": 700,
                               "text-anchor": "middle", "font-family": "Georgia, serif" }, rank));
    g.appendChild(el("text", { x: 0, y: 24, "font-size": 24, "text-anchor": "middle" }, SUITS[suit]));
    return g;
  };
  svg.appendChild(corner(17, 29, false));
  svg.appendChild(corner(83, 111, true));
  const big = ["J", "Q", "K"].includes(rank) ? 46 : rank === "A" ? 64 : 52;
  svg.appendChild(el("text", { x: 50, y: 70 + big * 0.35, "font-size": big, "text-anchor": "middle",
                               fill: colour }, SUITS[suit]));
  if (["J", "Q", "K"].includes(rank)) {
    svg.appendChild(el("rect", { x: 31, y: 40, width: 38, height: 62, rx: 6, fill: "none",
                                 stroke: colour, "stroke-width": 2.5 }));
    svg.appendChild(el("text", { x: 50, y: 56, "font-size": 20, "font-weight": 700, "text-anchor": "middle",
                                 fill: colour, "font-family": "Georgia, serif" }, rank));
  }
  return svg;
}

/** The back of a card (other players' hands). */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-back", "aria-hidden": "true" });
  svg.appendChild(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#7b2d26",
                               stroke: "#f3e9d2", "stroke-width": 3 }));
  for (let i = 0; i < 6; i++) {
    svg.appendChild(el("rect", { x: 12 + i * 2, y: 12 + i * 2, width: 76 - i * 4, height: 116 - i * 4, rx: 6,
                                 fill: "none", stroke: i % 2 ? "#c9a15b" : "#f3e9d2", "stroke-width": 1 }));
  }
  svg.appendChild(el("text", { x: 50, y: 82, "font-size": 34, "text-anchor": "middle", fill: "#f3e9d2" }, "♠"));
  return svg;
}
