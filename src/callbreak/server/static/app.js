// The Call Break web client: lobby, table, history, leaderboard and scorekeeper.
// Plain ES module, no build step. The server owns the game; this only shows the seat view it
// is sent and sends actions with the seat's token and the state version they were made against.

import { announce } from "/static/announce.js";
import { cardBack, cardName, cardSvg, sortHand, suitName, SUITS } from "/static/cards.js";
import { focusKey, keepFocus } from "/static/focus.js";
import { botLevel, chooseLanguage, format, lang, LANGUAGES, locale, num, personName, said, t, tenths, tn } from "/static/i18n.js";
import { cardPlaces, moveCards } from "/static/motion.js";
import { soundCues, soundToggle } from "/static/sound.js";

const app = document.getElementById("app");
const store = window.localStorage;

// --- small helpers -------------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function points(value) {
  return tenths(value);  // kept in tenths of a point; written in the reader's digits
}

// A sentence in the reader's words with a link where its {link} stands (each language puts it
// where its word order wants it).
function withLink(sentence, link) {
  const [before, after = ""] = sentence.split("{link}");
  return [before, link, after];
}

function grouped(code) {
  return code.replace(/(.{4})(?=.)/g, "$1-");
}

function toast(message, ms = 3500) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, ms);
}

async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json().catch(() => ({ message: t("The server answered with error {status}", { status: r.status }) }));
  if (!r.ok) throw new Error(data.message || data.detail || t("The server answered with error {status}", { status: r.status }));
  return data;
}

const tokenKey = (code) => `callbreak:token:${code}`;

// This browser's guest identity: a random secret kept here, sent when it takes a seat, so the
// leaderboard counts a person rather than a typed name (the server stores only its hash).
function guestId() {
  let id = store.getItem("callbreak:guest");
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store.setItem("callbreak:guest", id);
  }
  return id;
}
const sheetKey = (code) => `callbreak:sheet:${code}`;

let meta = null;
async function getMeta() {
  if (!meta) meta = await api("GET", "/api/meta");
  return meta;
}

// --- routing -------------------------------------------------------------------------------

let leave = () => {};

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    navigate(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);

// The top bar's Rules link: the table's own game at a table, every game's elsewhere.
function rulesLink(game = null) {
  const a = document.getElementById("rules-link");
  if (!a) return;
  a.href = game ? `/rules?game=${encodeURIComponent(game)}` : "/rules";
  a.title = game ? t("This game's rules, in a new tab") : t("Every game's rules, in a new tab");
}

// The top bar in the reader's language, and the language menu (each language by its own name).
function topbar() {
  document.title = t("Call Break");
  const brand = document.querySelector(".topbar .brand");
  if (brand) brand.setAttribute("aria-label", t("Call Break: home"));
  const brandName = document.querySelector(".topbar .brand-name");
  if (brandName) brandName.textContent = ` ${t("Call Break")}`;
  const words = { "/history": t("History"), "/stats": t("Leaderboard"), "/scorekeeper": t("Scorekeeper"), "/rules": t("Rules") };
  for (const a of document.querySelectorAll(".topbar nav a")) a.textContent = words[a.getAttribute("href")] || a.textContent;
  const menu = h("select", { id: "language", "aria-label": t("Language") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === lang }, name)));
  menu.addEventListener("change", () => chooseLanguage(menu.value));
  const bar = document.querySelector(".topbar");
  // On a phone the links are behind a Menu button (style.css): a row of them would be cut.
  const nav = bar.querySelector("nav");
  nav.id = "site-nav";
  const toggle = h("button", { id: "menu-toggle", type: "button", "aria-expanded": "false", "aria-controls": "site-nav" }, t("Menu"));
  const show = (open) => { bar.classList.toggle("menu-open", open); toggle.setAttribute("aria-expanded", String(open)); };
  toggle.addEventListener("click", () => show(!bar.classList.contains("menu-open")));
  nav.addEventListener("click", (e) => { if (e.target.closest("a")) show(false); });
  bar.append(toggle, menu);
}

function route() {
  leave();
  leave = () => {};
  rulesLink();
  const path = location.pathname;
  let m;
  app.replaceChildren();
  if ((m = path.match(/^\/t\/([A-Za-z0-9-]+)$/))) return tablePage(m[1].toUpperCase().replace(/-/g, ""));
  if ((m = path.match(/^\/s\/([A-Za-z0-9-]+)$/))) return sheetPage(m[1].toUpperCase().replace(/-/g, ""));
  if ((m = path.match(/^\/history\/([A-Za-z0-9-]+)$/))) return replayPage(m[1].toUpperCase());
  if ((m = path.match(/^\/review\/([A-Za-z0-9-]+)$/))) {
    return import("/static/review.js").then((r) => r.reviewPage(app, m[1].toUpperCase(), h, api));
  }
  if (path === "/history") return historyPage();
  if (path === "/stats") return statsPage();
  if (path === "/scorekeeper") return newSheetPage();
  return homePage();
}

// --- home: create or join ------------------------------------------------------------------

async function homePage() {
  const m = await getMeta();
  const name = h("input", { id: "name", maxlength: 24, value: store.getItem("callbreak:name") || "",
                            placeholder: t("Your name"), autocomplete: "nickname" });
  // One form for every game: what it shows follows what the chosen game offers (its presets,
  // a range of seats, a deal count the table sets, bots by URL).
  const gameSel = h("select", { id: "game" }, m.games.map((g) => h("option", { value: g.name }, g.title)));
  const chosen = () => m.games.find((x) => x.name === gameSel.value);
  const gameDesc = h("p", { class: "muted", id: "game-desc" });
  const playersIn = h("input", { id: "players", type: "number", min: 4, max: 4, value: 4 });
  const playersPart = h("div", {}, h("label", { for: "players" }, t("Players")), playersIn);
  // What each chosen bot is, in a line under the choice: people pick opponents by how they play.
  const describeBots = (el, notes, names) => {
    el.replaceChildren(...[...new Set(names)].map((b) => h("span", { class: "bot-note" }, h("b", {}, botLevel(b)), `: ${notes[b] || ""} `)));
  };
  const unlimited = h("input", { id: "unlimited", type: "checkbox" });
  const presetSel = h("select", { id: "preset" });
  const presetPart = h("div", {}, h("label", { for: "preset" }, t("Rules")), presetSel);
  const desc = h("p", { class: "muted", id: "preset-desc" });
  const deals = h("input", { id: "deals", type: "number", min: 1, max: 100, value: 5 });
  const dealsPart = h("div", { class: "row" },
    h("div", {}, h("label", { for: "deals" }, t("Deals")), deals),
    h("label", { class: "check" }, unlimited, " ", t("Unlimited deals (the host stops the table)")));
  const timer = h("select", { id: "timer" },
    [["", t("No turn timer")], ...[15, 30, 60].map((s) => [String(s), tn("{n} second", "{n} seconds", s)])]
      .map(([v, text]) => h("option", { value: v }, text)));
  let botSelects = [];
  const botRow = h("div", { class: "row" });
  const botsDesc = h("p", { class: "muted", id: "bots-desc" });
  const syncBots = () => describeBots(botsDesc, chosen().bot_descriptions, botSelects.map((s) => s.value));
  const seatBots = () => {  // a choice for each seat but the host's, of the bots that play the game
    const g = chosen();
    const was = botSelects.map((s) => s.value);
    botSelects = Array.from({ length: Number(playersIn.value) - 1 }, (_, i) => {
      const keep = g.bots.includes(was[i]) ? was[i] : g.strongest_bot;
      const sel = h("select", { id: `bot-${i + 1}`, "aria-label": t("Bot for seat {seat}", { seat: i + 2 }) },
        g.bots.map((b) => h("option", { value: b, selected: b === keep }, botLevel(b))));
      sel.addEventListener("change", syncBots);
      return sel;
    });
    botRow.replaceChildren(...botSelects.map((sel, i) => h("label", { class: "bot-pick" }, t("Seat {seat}", { seat: i + 2 }), sel)));
    syncBots();
  };
  const botSpeed = h("select", { id: "bot-speed" },
    [["0.7", t("Bots play at a human pace")], ["0.2", t("Bots play fast")], ["0", t("Bots play instantly")]]
      .map(([v, text]) => h("option", { value: v }, text)));
  const botUrl = h("input", { id: "bot-url", placeholder: t("optional: a tournament bot URL for seat 4") });  // Call Break's seats
  const botUrlPart = h("div", {}, h("label", { for: "bot-url" }, t("Seat a tournament-protocol bot")), botUrl);
  const options = h("input", { id: "options" });
  const err = h("p", { class: "error", id: "create-error" });
  const syncPreset = () => {
    const g = chosen();
    const p = g.presets.find((x) => x.name === presetSel.value);
    desc.textContent = g.presets.length > 1 ? p.description : "";
    deals.value = p.options.deals || 5;
    unlimited.checked = p.options.deals === null;
    deals.disabled = unlimited.checked;
    timer.value = p.options.turn_timer ? String(Math.round(p.options.turn_timer)) : "";
    if (!timer.value && p.options.turn_timer) timer.append(h("option", { value: p.options.turn_timer }, t("{seconds} s", { seconds: p.options.turn_timer })));
  };
  presetSel.addEventListener("change", syncPreset);
  unlimited.addEventListener("change", () => { deals.disabled = unlimited.checked; });
  const syncGame = () => {
    const g = chosen();
    gameDesc.textContent = g.min_players === g.max_players ? g.description
      : t("{description} ({low}-{high} players)", { description: g.description, low: g.min_players, high: g.max_players });
    presetSel.replaceChildren(...g.presets.map((p) => h("option", { value: p.name }, p.title)));
    presetPart.hidden = g.presets.length < 2;
    playersIn.min = g.min_players; playersIn.max = g.max_players;
    playersIn.value = Math.min(g.max_players, Math.max(g.min_players, Number(playersIn.value) || g.min_players));
    playersPart.hidden = g.min_players === g.max_players;
    dealsPart.hidden = !g.deals;
    botUrlPart.hidden = !g.url_bots;
    // An example of the game's own options: the first two that are not the table's own settings
    // (deals, the timer) or the dealer's, which every game has.
    const common = ["deals", "turn_timer", "first_dealer", "dealer_rotation"];
    const example = Object.entries(g.presets[0].options).filter(([k]) => !common.includes(k)).slice(0, 2)
      .map(([k, v]) => `${k}=${v === true ? "on" : v === false ? "off" : v === null ? 3 : v}`).join(" ");  // null: unlimited
    options.placeholder = t("optional overrides, e.g. {example}", { example });
    syncPreset();
    seatBots();
  };
  gameSel.addEventListener("change", syncGame);
  playersIn.addEventListener("change", seatBots);

  async function create(e) {
    e.preventDefault();
    err.textContent = "";
    const opts = {};
    for (const part of options.value.split(/[\s,]+/).filter(Boolean)) {
      const [k, v] = part.split("=");
      if (!k || v === undefined) { err.textContent = t("Option \"{option}\" should look like key=value", { option: part }); return; }
      opts[k] = v;
    }
    const g = chosen();
    const bots = [botSelects[0].value, ...botSelects.map((s) => s.value)];  // seat 1 is the host's unless they move
    if (g.url_bots && botUrl.value.trim()) bots[bots.length - 1] = botUrl.value.trim();  // a server may turn them off
    const settings = { game: g.name, preset: presetSel.value, players: Number(playersIn.value), bots,
                       options: opts, timer: timer.value ? Number(timer.value) : null, bot_delay: Number(botSpeed.value) };
    if (g.deals) settings.deals = unlimited.checked ? null : Number(deals.value);
    // The first table after an install may wait while the server compiles the expert: say so.
    let pending = true;
    const button = document.getElementById("create");
    button.disabled = true;  // one table per click, however long it takes
    const waiting = setTimeout(async () => {
      const ready = await fetch("/readyz").then((r) => r.json()).catch(() => ({}));
      if (pending && ready.preparing) {
        status.textContent = t("Preparing the expert, first use: up to a minute…");  // ready.preparing, in words
        status.hidden = false;
      }
    }, 500);
    try {
      store.setItem("callbreak:name", name.value);
      const made = await api("POST", "/api/tables", { name: name.value, settings, guest: guestId() });
      store.setItem(tokenKey(made.code), made.token);
      navigate(made.link);
    } catch (x) { err.textContent = x.message; } finally {
      pending = false;
      clearTimeout(waiting);
      status.hidden = true;
      button.disabled = false;
    }
  }

  const settingsPart = h("div", { id: "game-settings" },
    h("div", { class: "row" }, presetPart, playersPart), desc, dealsPart,
    h("fieldset", { class: "bots" }, h("legend", {}, t("Bots for the seats nobody takes")), botRow, botsDesc),
    h("details", {}, h("summary", {}, t("More options")),
      h("label", { for: "options" }, t("Rule overrides")), options, botUrlPart));
  syncGame();
  const status = h("p", { class: "muted", id: "create-status", role: "status", hidden: true });
  // A public server has a ceiling on tables with bots: say so before anyone fills in the form.
  const full = h("p", { class: "error", id: "server-full", hidden: true });
  api("GET", "/api/capacity").then((c) => {
    if (!c.full) return;
    full.textContent = t("This server is full: it is running as many tables with bots as it can ({ceiling}). Try again in a few minutes, or join a friend's table with its link or code.", { ceiling: c.ceiling });
    full.hidden = false;
  }).catch(() => {});
  const joinCode = h("input", { id: "join-code", placeholder: t("Room code, e.g. {example}", { example: "ABCD-EFGH-JKMN" }), autocomplete: "off" });
  app.append(playNowPanel(m, name),
    h("div", { class: "grid2" },
      h("form", { class: "panel", onsubmit: create },
        h("h2", {}, t("Start a table")),
        h("label", { for: "name" }, t("Your name")), name,
        h("label", { for: "game" }, t("Game")), gameSel, gameDesc,
        settingsPart,
        h("label", { for: "timer" }, t("Turn timer")), timer,
        h("label", { for: "bot-speed" }, t("Bot speed")), botSpeed,
        full, h("p", {}, h("button", { class: "primary", id: "create", type: "submit" }, t("Create table"))), status, err),
      h("form", { class: "panel", onsubmit: (e) => { e.preventDefault();
        const code = joinCode.value.toUpperCase().replace(/[^A-Z0-9]/g, "");
        if (code) navigate(`/t/${code}`); } },
        h("h2", {}, t("Join friends")),
        h("p", { class: "muted" }, t("Got a link? Just open it. Or type the room code:")),
        joinCode, h("p", {}, h("button", { type: "submit", id: "join-go" }, t("Go to table"))),
        h("h3", {}, t("Playing with real cards?")),
        h("p", {}, withLink(t("{link} to keep the score of a game at a real table."),
          h("a", { href: "/scorekeeper", "data-link": true }, t("Open the scorekeeper")))))));
}

// --- Play now: one button to a table with whoever else is waiting; bots fill the rest -------

// The lobby's Play now panel. A press takes a place in the server's queue (the same place for
// this browser, however often it is pressed); the page polls its ticket for who is coming and
// the seconds left, and goes to the table once it is made.
function playNowPanel(m, nameInput) {
  const quick = m.play_now;
  const panel = h("section", { class: "panel", id: "play-now-panel" });
  const err = h("p", { class: "error", id: "play-now-error" });
  const rules = h("select", { id: "play-now-rules", "aria-label": t("Rules for Play now") },
    quick.rules.map((r) => h("option", { value: r.name, selected: r.name === quick.default }, r.title)));
  let ticket = null;
  let timer = null;

  const leaveUrl = () => `/api/play-now/${ticket}/leave`;
  const onHide = () => { if (ticket) navigator.sendBeacon(leaveUrl(), JSON.stringify({ guest: guestId() })); };
  function stop() {
    clearTimeout(timer);
    window.removeEventListener("pagehide", onHide);
    ticket = null;
  }

  function idle() {
    stop();
    const button = h("button", { class: "primary", id: "play-now", type: "button" }, t("Play now"));
    button.addEventListener("click", async () => {
      err.textContent = "";
      if (!nameInput.value.trim()) {
        err.textContent = t("Type your name first (under “Your name”).");
        nameInput.focus();
        return;
      }
      button.disabled = true;  // one place per press, however long the answer takes
      try {
        store.setItem("callbreak:name", nameInput.value);
        show(await api("POST", "/api/play-now", { guest: guestId(), name: nameInput.value, rules: rules.value }));
      } catch (x) { err.textContent = x.message; button.disabled = false; }
    });
    panel.replaceChildren(h("h2", {}, t("Play now")),
      h("p", { class: "muted" }, t("Sit down with whoever else is waiting for the same rules. After {seconds} seconds, bots take the seats nobody took and the game starts.",
        { seconds: num(Math.round(quick.wait)) })),
      h("div", { class: "row" }, h("label", { for: "play-now-rules" }, t("Rules")), rules, button), err);
  }

  function show(s) {
    if (s.status === "seated") {
      stop();
      store.setItem(tokenKey(s.code), s.token);
      navigate(s.link);
      return;
    }
    if (s.status !== "waiting") { idle(); return; }
    if (!ticket) {  // waiting starts: leaving the page gives the place up
      ticket = s.ticket;
      window.addEventListener("pagehide", onHide);
      leave = () => { if (ticket) api("POST", leaveUrl(), { guest: guestId() }).catch(() => {}); stop(); };
    }
    const seats = Array.from({ length: s.seats }, (_, i) => s.players[i]);
    const left = Math.ceil(s.seconds_left);
    const quit = h("button", { id: "play-now-leave", type: "button" }, t("Leave the queue"));
    quit.addEventListener("click", async () => {
      const held = ticket;
      stop();
      try { show(await api("POST", `/api/play-now/${held}/leave`, { guest: guestId() })); } catch (x) { err.textContent = x.message; idle(); }
    });
    panel.replaceChildren(h("h2", {}, t("Play now: {rules}", { rules: (quick.rules.find((r) => r.name === s.rules) || s).title })),
      h("p", { id: "play-now-status", role: "status" },
        left > 0 ? t("Waiting for players: bots take the empty seats in {seconds} s.", { seconds: num(left) }) : t("Making the table…")),
      h("ol", { id: "play-now-players" }, seats.map((name, i) =>
        h("li", { class: name === undefined ? "muted" : "" }, name === undefined ? t("a bot, unless someone comes")
          : i === s.you ? `${name} ${t("(you)")}` : name))),
      h("p", {}, quit), err);
    clearTimeout(timer);
    timer = setTimeout(poll, quick.poll * 1000);
  }

  async function poll() {
    if (!ticket) return;
    try {
      err.textContent = "";
      show(await api("POST", `/api/play-now/${ticket}`, { guest: guestId() }));
    } catch (x) {  // the server away for a moment: say so and ask again
      err.textContent = x.message;
      timer = setTimeout(poll, quick.poll * 1000);
    }
  }

  idle();
  return panel;
}

// --- the table -----------------------------------------------------------------------------

function tablePage(code) {
  let token = store.getItem(tokenKey(code));
  let ws = null;
  let closed = false;
  let retry = 0;
  let state = null;
  let selected = -1;
  let hint = null;
  let callBuffer = "";
  let shownResults = null;
  let clockTimer = null;
  let clockEnds = null;
  let clockTotal = null;  // seconds the running clock started from (the bar's full width)
  let online = false;  // the socket is open and the server said welcome
  let pending = null;  // the last action sent: { version } until a state shows what became of it
  let reconnected = false;  // the next state is the first after a reconnect
  let reconnectAt = null;  // when the next try starts (the bar counts down to it)
  let expectClose = false;  // we closed the socket ourselves (to reconnect with a new token)
  let dockedScores = false;  // the between-deal scores shown over the board, not as a pop-up
  let lifted = null;  // phone: the card lifted by a first tap, played by a second
  let meta = null;  // rule sets' display names, for the lobby
  getMeta().then((m) => { meta = m; render(); });
  const seenKey = `callbreak:seen:${code}`;  // the newest clock notice this browser has shown
  let seenNotice = Number(store.getItem(seenKey) || 0);
  const picked = new Set();  // cards chosen for a Horsethief exchange

  const connBar = h("div", { id: "conn", class: "conn", role: "status", hidden: true });
  const noticeBox = h("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite", hidden: true });
  const root = h("div", { id: "table", "aria-live": "off" });  // announce.js says what changes
  app.append(connBar, noticeBox, root);

  function setOnline(up) {
    online = up;
    document.body.classList.toggle("offline", !up);
    connBar.hidden = up;
    if (!up) connBar.textContent = t("Connection lost — reconnecting…");
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token }));
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (closed) return;
      if (expectClose) { expectClose = false; connect(); return; }  // not a drop: no alarm
      setOnline(false);
      // Back off (0.5 s, 1 s, 2 s ... up to 8 s, with jitter) so a restarting server is not flooded.
      const wait = Math.min(8000, 500 * 2 ** retry) * (0.75 + Math.random() / 2);
      retry = Math.min(retry + 1, 5);
      reconnectAt = performance.now() + wait;
      tickConnection();
      setTimeout(() => { if (!closed) { reconnectAt = null; tickConnection(); connect(); } }, wait);
    };
  }

  function tickConnection() {
    if (online) return;
    const left = reconnectAt === null ? 0 : Math.ceil((reconnectAt - performance.now()) / 1000);
    connBar.textContent = left > 0 ? t("Connection lost — reconnecting in {seconds} s…", { seconds: left }) : t("Connection lost — reconnecting…");
  }

  function send(message) {
    if (!online || !ws || ws.readyState !== WebSocket.OPEN) {
      toast(t("Not sent: the connection is down. It reconnects by itself; try again then."));
      return false;
    }
    ws.send(JSON.stringify({ token, ...message }));
    return true;
  }

  function act(action) {
    if (!state) return;
    // The server applies an action only at the version it was made for, so a resend can never
    // apply twice; after a drop the first state says whether it was applied.
    if (!send({ type: "action", version: state.version, action })) return;
    pending = { version: state.version };
    hint = null;
    const wasLifted = lifted !== null;
    lifted = null;
    markNoticesSeen();
    if (wasLifted) render();  // the Play button goes at once
  }

  function markNoticesSeen() {
    const newest = Math.max(seenNotice, ...((state && state.notices) || []).map((n) => n.version));
    if (newest !== seenNotice) { seenNotice = newest; store.setItem(seenKey, String(newest)); }
    noticeBox.hidden = true;
  }

  function noticeText(n) {
    const names = state.table.seats.map((s) => s.name);
    const mine = n.seat === state.you;
    const who = names[n.seat];
    const a = n.action;
    let what;
    if (a.type === "call") what = mine ? t("your call was set to {tricks}", { tricks: a.tricks }) : t("{name}'s call was set to {tricks}", { name: who, tricks: a.tricks });
    else if (a.type === "bid") what = mine ? t("your bid was set to {tricks}", { tricks: a.tricks }) : t("{name}'s bid was set to {tricks}", { name: who, tricks: a.tricks });
    else if (a.type === "play") what = mine ? t("your {card} was played", { card: cardName(a.card) }) : t("{name}'s {card} was played", { name: who, card: cardName(a.card) });
    else what = `${mine ? t("you") : who}: ${describeAction(a)}`;
    if (n.why === "timer") return t("Time ran out: {what}.", { what });
    return mine ? t("You were away, so a bot stood in: {what}.", { what }) : t("{name} was away, so a bot stood in: {what}.", { name: who, what });
  }

  function showNotices() {
    // What the clock did since this browser last looked (a returning player sees their own).
    const fresh = (state.notices || []).filter((n) => n.version > seenNotice);
    if (!fresh.length) { noticeBox.hidden = true; return; }
    // The latest two, and how many before them: the hand must stay on a phone's screen.
    const shown = fresh.slice(-2);
    const earlier = fresh.length - shown.length;
    noticeBox.replaceChildren(h("ul", {},
      earlier ? h("li", { class: "muted" }, tn("…and {n} earlier move played by the clock", "…and {n} earlier moves played by the clock", earlier)) : null,
      shown.map((n) => h("li", { class: n.seat === state.you ? "mine" : "" }, noticeText(n)))),
      h("button", { id: "notices-ok", onclick: markNoticesSeen }, t("OK")));
    noticeBox.hidden = false;
  }

  function onMessage(m) {
    if (m.type === "welcome") {
      retry = 0;
      reconnected = state !== null;
      setOnline(true);
    } else if (m.type === "state") {
      if (!state) {  // a first look: older notices are news only to a player who holds a seat
        if (m.you === null || !store.getItem(seenKey)) seenNotice = m.you === null ? m.version : 0;
      }
      if (state && state.version !== m.version) { picked.clear(); lifted = null; }
      if (pending && m.version > pending.version) pending = null;  // applied: nothing lost
      else if (pending && reconnected) {  // back after a drop, and the table never got it
        toast(t("Your last move did not reach the table: make it again."), 6000);
        pending = null;
      }
      reconnected = false;
      soundCues(state, m);
      announce(state, m);
      state = m;
      if (state.view && state.view.legal.length === 0) selected = -1;
      if (hint && hint.version !== state.version) hint = null;
      clockEnds = m.clock && m.clock.left !== null ? performance.now() + m.clock.left * 1000 : null;
      clockTotal = m.clock && m.clock.left !== null ? (m.clock.kind === "timer" && m.table.timer ? m.table.timer : m.clock.left) : null;
      render();
      showNotices();
    } else if (m.type === "error") {
      if (m.code === "no_table") { closed = true; renderMissing(); return; }
      if (m.code === "stale") return;  // the newer state is on its way
      toast(m.message);
    } else if (m.type === "hint") {
      hint = m;
      render();
    } else if (m.type === "moved") {
      token = null;
      store.removeItem(tokenKey(code));
      toast(t("Your seat moved to another device: this one now watches."), 8000);
    } else if (m.type === "rematch") {
      // A seated player keeps their seat key at the rematch.
      if (m.seat != null && token) store.setItem(tokenKey(m.code), token);
      toast(t("Rematch! Moving to the new table…"));
      setTimeout(() => navigate(`/t/${m.code}`), 600);
    }
  }

  function renderMissing() {
    root.replaceChildren(h("div", { class: "panel" }, h("h2", {}, t("No open table with that code")),
      h("p", {}, withLink(t("Check the code, or look for the game in the {link}."), h("a", { href: "/history", "data-link": true }, t("history"))))));
  }

  function render() {
    if (!state) return;
    const places = cardPlaces(root), focus = focusKey(root);  // the redrawn table moves on from these
    rulesLink(state.table.game || "callbreak");
    if (state.table.status === "lobby") renderLobby();
    else renderTable();
    moveCards(root, places);
    keepFocus(root, focus);
  }

  // Lobby: seats, share link, join, start.
  function renderLobby() {
    const table = state.table;
    const me = state.you;
    const link = `${location.origin}/t/${table.code}`;
    const nameInput = h("input", { id: "join-name", maxlength: 24, value: store.getItem("callbreak:name") || "",
                                   placeholder: t("Your name") });
    const seatSlot = (s) => {
      const mine = s.seat === me;
      const level = botLevel(table.bots[s.seat]);
      const label = s.kind === "open" ? (article(level) === "an" ? t("Open — an {level} bot plays unless someone sits", { level })
        : t("Open — a {level} bot plays unless someone sits", { level })) : personName(s.name);
      const takeable = s.kind === "open" && (me === null || me === undefined ? true : true);
      return h("div", { class: `seat-slot ${s.kind !== "open" ? "taken" : ""} ${mine ? "me" : ""}`,
                        "data-seat": s.seat },
        h("div", {}, h("strong", {}, t("Seat {seat}", { seat: s.seat + 1 })), mine ? ` ${t("(you)")}` : "", s.seat === table.host_seat ? ` · ${t("host")}` : ""),
        h("div", {}, label),
        takeable ? h("button", { class: "take-seat", "data-seat": s.seat, onclick: () => takeSeat(s.seat) },
          me === null ? t("Sit here") : t("Move here")) : null);
    };
    async function takeSeat(seat) {
      try {
        if (me === null) {
          store.setItem("callbreak:name", nameInput.value);
          const joined = await api("POST", `/api/tables/${code}/join`, { name: nameInput.value, seat, guest: guestId() });
          token = joined.token;
          store.setItem(tokenKey(code), token);
          expectClose = true;
          ws.close();  // reconnects with the token
        } else {
          await api("POST", `/api/tables/${code}/seat`, { token, seat });
        }
      } catch (x) { toast(x.message); }
    }
    root.replaceChildren(h("div", { class: "panel" },
      h("h2", {}, t("Table"), " ", h("span", { class: "code", id: "room-code" }, grouped(table.code))),
      h("p", {}, `${gameName(table)} · `,
        table.unlimited ? `${t("unlimited deals")} · ` : table.deals ? `${tn("{n} deal", "{n} deals", table.deals)} · ` : "",
        `${tn("{n} player", "{n} players", table.players)} · `, table.timer ? t("{seconds} s turn timer", { seconds: table.timer }) : t("no turn timer")),
      // The host's start comes first: on a phone it is in sight without scrolling past the seats.
      h("p", {}, me !== null && me === table.host_seat
        ? h("button", { class: "primary", id: "start", onclick: () => send({ type: "start" }) }, t("Start the game"))
        : h("span", { class: "muted" }, me === null ? t("Pick a seat to play, or stay to watch.") : t("Waiting for the host to start…"))),
      h("div", { class: "row" }, h("input", { id: "share-link", "aria-label": t("Table link"), value: link, readonly: true, onclick: (e) => e.target.select() }),
        h("button", { id: "copy-link", onclick: () => copyLink(link) }, t("Copy link"))),
      h("p", { class: "muted" }, t("Send the link to friends. Seats nobody takes are played by bots.")),
      me === null ? h("div", {}, h("label", { for: "join-name" }, t("Your name (then pick a seat)")), nameInput) : null,
      h("div", { class: "seat-list" }, table.seats.map(seatSlot)),
      me !== null ? h("p", {}, deviceButton()) : null));
  }

  function copyLink(link, field = "share-link") {
    // The clipboard API exists only on https (or localhost): elsewhere, select the link to copy.
    const fallback = () => {
      const input = document.getElementById(field);
      if (input) { input.focus(); input.select(); }
      toast(t("Select the link and copy it"));
    };
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast(t("Link copied")), fallback);
    else fallback();
  }

  // One renderer for every game's table, drawn from the seat view the server sends: the seats,
  // the trick, the hand and a control for each kind of legal action the view lists. Four seats
  // sit around the trick; any other count sits in a grid above it (3 to 8 seats).
  const AREAS = ["bottom", "right", "top", "left"];

  function renderTable() {
    const v = state.view;
    const table = state.table;
    const mySeat = state.you;
    const n = v.hand_sizes.length;
    const compass = n === 4;
    const rel = (seat) => (seat - (mySeat ?? 0) + n) % n;  // 0 = you (bottom), then round the table
    const myTurn = mySeat !== null && v.to_act === mySeat && v.phase !== "over";
    const names = table.seats.map((s) => s.name);

    const seatBox = (seat) => {
      const s = table.seats[seat];
      const out = v.in_game && !v.in_game[seat];
      return h("div", { class: `seat ${compass ? `seat-${AREAS[rel(seat)]}` : "gseat"} ${v.to_act === seat ? "turn" : ""} ${out ? "gone" : ""}`,
                        "data-seat": seat },
        h("div", { class: "name", title: `${t("Seat {seat}", { seat: seat + 1 })} · ${personName(s.name)}` }, personName(s.name), seat === mySeat ? ` ${t("(you)")}` : "", s.kind === "bot" ? botMark() : ""),
        h("div", { class: "tricks-count" }, tricksLine(v, seat)),
        seatNotes(v, seat) ? h("div", { class: "seat-info" }, seatNotes(v, seat)) : null,
        h("div", {}, t("total {points}", { points: points(v.totals[seat]) }),
          v.dealer === seat ? ` · ${t("dealer")}` : "",
          v.streak && v.streak[seat] ? ` · ${t("out {count}×", { count: v.streak[seat] })}` : ""),
        s.connected ? null : h("div", { class: "away" }, t("away — a bot plays after the timer")),
        s.faults ? h("div", { class: "away faults", title: s.last_fault }, tn("{n} bot fault: default played", "{n} bot faults: default played", s.faults)) : null,
        seat === mySeat ? null : compass ? h("div", { class: "backs", role: "img", "aria-label": tn("{n} card in hand", "{n} cards in hand", v.hand_sizes[seat]) }, Array.from({ length: v.hand_sizes[seat] }, () => cardBack()))
          : h("div", { class: "muted-light" }, tn("{n} card", "{n} cards", v.hand_sizes[seat])));
    };

    // The trick: around the middle at four seats, in a row with each player's name otherwise.
    const played = (c, seat, last) => compass
      ? h("div", { class: `played pos-${rel(seat)} ${last ? "last" : ""}`, [last ? "data-last-card" : "data-card"]: c, "data-seat": seat }, cardSvg(c))
      : h("div", { class: `gplayed ${last ? "last" : ""}`, [last ? "data-last-card" : "data-card"]: c, "data-seat": seat }, cardSvg(c), h("div", {}, personName(names[seat])));
    let lastWinner = null;
    const trick = h("div", { class: compass ? "trick" : "gtrick", id: "trick", role: "group", "aria-label": t("Cards on the table") },
      v.trick.map((c, i) => played(c, v.trick_seats[i], false)));
    if (!v.trick.length && v.tricks.length && (v.phase === "play" || v.phase === "over")) {
      // Keep the trick just won in sight (faded) until the next card is led.
      const last = v.tricks[v.tricks.length - 1];
      const seats = trickSeats(last, n);
      last.cards.forEach((c, i) => trick.append(played(c, seats[i], true)));
      lastWinner = personName(names[last.winner]);
      trick.dataset.winner = last.winner;  // where the won trick goes (motion.js)
    }

    // Your hand: legal cards raised. A card is played with a click, or on a phone lifted by a
    // first tap and played by a second; in an exchange a tap puts it in or out of the discard.
    const legalCards = new Set(v.legal.filter((a) => a.type === "play").map((a) => a.card));
    const exchanging = v.legal.some((a) => a.type === "exchange");
    const hand = v.hand ? sortHand(v.hand) : [];
    const legalList = hand.filter((c) => legalCards.has(c));
    if (selected >= legalList.length) selected = legalList.length - 1;
    const hintCard = hint && hint.action.type === "play" ? hint.action.card : null;
    const handRow = h("div", { class: "hand", id: "hand", role: "group", "aria-label": t("Your hand") },
      hand.map((c) => {
        const legal = legalCards.has(c) || exchanging;
        const chosen = exchanging ? picked.has(c)
          : legalCards.has(c) && (lifted === null ? legalList.indexOf(c) === selected : lifted === c);
        return h("button", { class: `card ${legal ? "legal" : myTurn && v.phase === "play" ? "illegal" : ""} ${chosen ? "selected" : ""} ${hintCard === c ? "hinted" : ""}`,
                             "data-card": c, "aria-pressed": exchanging ? String(chosen) : null,
                             "aria-disabled": legal ? null : "true", tabindex: legal ? null : "-1",
                             onclick: () => {
                               if (exchanging) { if (picked.has(c)) picked.delete(c); else picked.add(c); render(); }
                               else tapCard(c, legalCards.has(c));
                             } }, cardSvg(c));
      }));
    if (v.hand === null && mySeat !== null && v.hand_sizes[mySeat]) {
      handRow.append(h("p", {}, t("Your cards are face down (you may call blind before looking).")));
    }

    // A control for each kind of action the view lists as legal now.
    const controls = h("div", { class: "controls", id: "controls" });
    const legal = (type, test = () => true) => v.legal.filter((a) => a.type === type && test(a));
    const calls = legal("call", (a) => !a.blind);
    const blinds = legal("call", (a) => a.blind);
    if (calls.length) {
      controls.append(h("span", {}, t("Your call:")),
        ...calls.map((a) => h("button", { class: "call", "data-call": a.tricks, "aria-label": t("Call {n}", { n: num(a.tricks) }), onclick: () => act(a) }, num(a.tricks))));
    }
    if (blinds.length) {
      controls.append(h("span", {}, t("Blind (doubled):")),
        ...blinds.map((a) => h("button", { class: "call-blind", "data-blind": a.tricks, "aria-label": t("Call {n} blind", { n: num(a.tricks) }), onclick: () => act(a) }, num(a.tricks))));
    }
    for (const a of legal("look")) controls.append(h("button", { id: "look", onclick: () => act(a) }, t("Look at my cards")));
    const bids = legal("bid");
    if (bids.length) {
      controls.append(h("span", {}, t("Your bid:")),
        ...bids.map((a) => h("button", { class: "bid", "data-bid": a.tricks, "aria-label": t("Bid {n}", { n: num(a.tricks) }), onclick: () => act(a) }, num(a.tricks))));
    }
    for (const a of legal("pass")) controls.append(h("button", { id: "pass", onclick: () => act(a) }, t("Pass")));
    const trumps = legal("trump");
    if (trumps.length) {
      controls.append(h("span", {}, t("Trump:")), ...trumps.map((a) => h("button", { class: "trump", "data-suit": a.suit,
        "aria-label": t("Name {suit} trump", { suit: suitName(a.suit) }), onclick: () => act(a) }, SUITS[a.suit])));
    }
    for (const a of legal("join")) {
      controls.append(h("button", { class: "join", "data-playing": String(a.playing), onclick: () => act(a) },
        a.playing ? t("Play this hand") : t("Sit this hand out")));
    }
    if (exchanging) {
      const allowed = new Set(legal("exchange").map((a) => [...a.cards].sort().join(",")));
      const ok = allowed.has([...picked].sort().join(","));
      controls.append(h("button", { id: "exchange", disabled: !ok, onclick: () => {
        const cards = [...picked];
        picked.clear();
        act({ type: "exchange", cards });
      } }, picked.size ? tn("Exchange {n} card", "Exchange {n} cards", picked.size) : t("Keep my hand")),
      h("span", { class: "muted-light" }, t("Pick the cards to throw away, then exchange.")));
    }
    for (const a of legal("settle")) {
      controls.append(h("button", { class: "settle", "data-penalize": String(a.penalize_others), onclick: () => act(a) },
        a.penalize_others ? t("Give each other player +{points}", { points: 5 }) : t("Take −{points} myself", { points: 5 })));
    }
    if (lifted !== null && legalCards.has(lifted)) {
      const card = lifted;  // this button plays this card, however often it is tapped
      controls.append(h("button", { class: "primary", id: "play-lifted", onclick: () => act({ type: "play", card }) },
        t("Play {card}", { card: cardName(card) })),
      h("button", { id: "put-back", onclick: () => { lifted = null; render(); } }, t("Put back")));
    }
    for (const a of legal("redeal")) {
      controls.append(h("button", { class: "redeal", onclick: () => act(a) },
        a.claim ? t("Show my hand and claim a redeal") : t("Keep my hand")));
    }
    if (myTurn && v.legal.length) {
      controls.append(h("button", { id: "hint", onclick: () => send({ type: "hint" }) }, t("Hint")));
    }
    const hintText = h("div", { class: "hint-text", id: "hint-text" },
      // The bots give their reasons in free English: another language shows the advice alone.
      hint && hint.reason && lang === "en" ? t("Hint ({bot}): {action} — {reason}", { bot: botLevel(hint.bot), action: describeAction(hint.action), reason: hint.reason })
        : hint ? t("Hint ({bot}): {action}", { bot: botLevel(hint.bot), action: describeAction(hint.action) }) : "",
      !hint && lastWinner ? h("span", { id: "last-trick" }, t("{name} won the last trick", { name: lastWinner })) : null);

    const clock = h("span", { class: "clock", id: "clock" },
      h("span", { class: "clock-bar", id: "clock-bar", role: "progressbar", "aria-label": t("Time left") }, h("span", {})),
      h("span", { id: "clock-text" }));
    const turnText = v.phase === "over" ? t("Game over")
      : mySeat !== null && v.to_act === mySeat ? t("Your turn") : v.to_act !== null && v.to_act >= 0 ? (TO_ACT[v.phase] || TO_ACT.play)(personName(names[v.to_act])) : "";
    const number = v.deal_number;
    const of = v.deal_limit;
    const status = h("div", { class: "status" },
      mySeat === null ? h("span", { id: "watching", title: t("You see what every player sees: no hands") }, t("Watching")) : null,
      h("span", { id: "game-title" }, h("span", { class: "game-name" }, `${gameName(table)} · `),
        dealOf(of && number > of ? of : number, of)),
      PHASE_TEXT[v.phase] ? h("span", { id: "phase" }, PHASE_TEXT[v.phase]()) : null,
      h("span", {}, v.trump ? t("Trump {suit}", { suit: SUITS[v.trump] }) : t("No trump yet"), v.low_high ? ` · ${t("2 high")}` : ""),
      v.upcard ? h("span", { class: "upcard" }, t("Upcard"), " ", h("span", { class: "mini-card" }, cardSvg(v.upcard))) : null,
      v.stock_size ? h("span", {}, t("Stock {count}", { count: v.stock_size })) : null,
      h("span", { id: "turn" }, turnText), clock,
      state.preparing ? h("span", { id: "preparing", class: "muted" }, t("preparing the expert, first use: up to a minute")) : null,
      stopButton(table),
      h("button", { id: "show-scores", onclick: () => showScores(v.phase === "over") }, t("Scores")));

    if (dockedScores && (v.phase === "over" || v.trick.length || v.tricks.length)) dockedScores = false;  // play is on
    const docked = dockedScores ? h("div", { class: "board-scores", id: "scoreboard", role: "region", "aria-label": t("Scoreboard") },
      h("div", { class: "panel" }, h("h2", {}, t("Scoreboard")), scoreTable(names, v),
        h("button", { id: "close-scores", onclick: () => { dockedScores = false; render(); } }, t("Close")))) : null;
    const others = [...Array(n).keys()].filter((s) => s !== mySeat);
    const board = compass
      ? h("div", { class: "board" }, others.map(seatBox), trick, mySeat !== null ? seatBox(mySeat) : null, docked)
      : h("div", { class: "board gboard" },  // you last, the others in the order they play after you
        h("div", { class: "gseats" }, [...others.filter((s) => s > (mySeat ?? -1)), ...others.filter((s) => s < (mySeat ?? -1)),
          ...(mySeat !== null ? [mySeat] : [])].map(seatBox)), trick, docked);
    root.replaceChildren(h("div", { class: "felt", "data-game": table.game || "callbreak" }, status, board, handRow, controls, hintText,
      v.notice ? h("p", { class: "notice", id: "notice" }, said(v.notice_words, v.notice)) : null,
      v.discards && v.discards.length ? h("p", { class: "muted-light" }, t("You threw away:"), " ", v.discards.map(cardName).join(", ")) : null,
      mySeat === null ? null : h("div", { class: "keys" }, t("Keys:"), " ", h("kbd", {}, "←"), h("kbd", {}, "→"), " ", t("choose,"), " ", h("kbd", {}, "Enter"),
        " ", t("play, digits +"), " ", h("kbd", {}, "Enter"), " ", t("call or bid,"), " ", h("kbd", {}, "H"), " ", t("hint,"), " ", h("kbd", {}, "S"), " ", t("scores"))),
      ...(v.redeal ? [h("p", { class: "panel" }, t("Deal thrown in: {reason}", { reason: said(v.redeal.words, v.redeal.reason) }))] : []),
      v.phase !== "over" ? h("p", { class: "table-foot" }, deviceButton(), soundToggle()) : gameOverActions(table));
    tickClock();

    // A scoreboard after each deal and at the end.
    if (shownResults === null) shownResults = v.results.length;
    if (v.results.length > shownResults || (v.phase === "over" && shownResults !== -1)) {
      shownResults = v.phase === "over" ? -1 : v.results.length;
      showScores(v.phase === "over");
    }
  }

  function tapCard(c, legal) {
    if (!legal) return;
    // On a phone a first tap lifts the card and a second plays it, so a mis-tap can be put back.
    if (!PHONE.matches || lifted === c) { act({ type: "play", card: c }); return; }
    lifted = c;
    render();
  }

  // The table's game as people know it: its preset's title (Call Bridge is a preset of Call
  // Break's), else the game's.
  function gameName(table) {
    const game = meta && meta.games.find((g) => g.name === (table.game || "callbreak"));
    const preset = game && game.presets.find((p) => p.name === table.preset);
    const title = preset ? preset.title : table.title;
    return table.practice ? t("{game}, practice (seeded)", { game: title }) : title;
  }

  // What comes after the last trick, on the page itself: it stays when the final scoreboard is
  // closed.
  function gameOverActions(table) {
    const isHost = state.you !== null && state.you === table.host_seat;
    return h("div", { class: "row game-over-actions", id: "game-over-actions" },
      isHost ? h("button", { class: "primary", id: "end-rematch", onclick: () => send({ type: "rematch" }) }, t("Rematch"))
        : h("span", { class: "muted-light" }, t("The host can start a rematch.")),
      h("a", { class: "button", href: `/history/${table.code}`, "data-link": true, id: "end-replay" }, t("Replay this game")),
      h("a", { class: "button", href: `/review/${table.code}`, "data-link": true, id: "end-review" }, t("Review this game")));
  }

  function deviceButton() {
    if (state.you === null || state.you === undefined || !token) return null;
    return h("button", { id: "other-device", onclick: showHandoff }, t("Continue on another device"));
  }

  async function showHandoff() {
    let made;
    try { made = await api("POST", `/api/tables/${code}/handoff`, { token }); } catch (x) { toast(x.message); return; }
    const link = `${location.origin}${made.link}`;
    document.querySelectorAll(".modal").forEach((x) => x.remove());
    const modal = h("div", { class: "modal", id: "handoff", onclick: (e) => { if (e.target === modal) modal.remove(); } },
      h("div", { class: "panel", role: "dialog", "aria-label": t("Continue on another device") },
        h("h2", {}, t("Continue on another device")),
        h("p", {}, t("Open this link on the other device within {minutes} minutes. Your seat moves there, and this device will only watch. Keep it to yourself: whoever opens it takes your seat.", { minutes: 10 })),
        h("input", { id: "handoff-link", "aria-label": t("Link for the other device"), value: link, readonly: true, onclick: (e) => e.target.select() }),
        h("div", { class: "row" }, h("button", { onclick: () => copyLink(link, "handoff-link") }, t("Copy link")),
          h("button", { id: "close-handoff", onclick: () => modal.remove() }, t("Close")))));
    document.body.append(modal);
  }

  function stopButton(table) {
    // Unlimited deals: the host ends the table; it stops when the deal in hand is over.
    if (!table.unlimited || table.status !== "playing" || state.you === null || state.you !== table.host_seat) return null;
    if (table.stop_requested) return h("span", { id: "stopping" }, t("Stopping after this deal"));
    return h("button", { id: "stop-table", onclick: () => send({ type: "stop" }) }, t("Stop the table"));
  }

  function showScores(final) {
    const v = state.view;
    const table = state.table;
    const names = table.seats.map((s) => s.name);
    document.querySelectorAll(".modal").forEach((x) => x.remove());
    const close = () => modal.remove();
    const winners = v.winners.map((s) => personName(names[s])).join(t(" and "));
    const isHost = state.you !== null && state.you === table.host_seat;
    // Between deals the scores sit over the board, not in a pop-up: the hand, the calls and the
    // clock stay in sight, a tap on a call makes the call, and the keys keep working.
    if (!final) {
      dockedScores = true;
      render();
      return;
    }
    const modal = h("div", { class: "modal", id: "scoreboard", onclick: (e) => { if (e.target === modal) close(); } },
      h("div", { class: "panel", role: "dialog", "aria-label": t("Scoreboard") },
        h("h2", {}, final ? tn("Game over — {winners} wins!", "Game over — {winners} win!", v.winners.length, { winners }) : t("Scoreboard")),
        table.low_wins ? h("p", { class: "muted" }, t("The lowest score is best.")) : null,
        scoreTable(names, v),
        v.chips ? h("p", {}, t("Chips:"), " ", names.map((n, i) => `${personName(n)} ${v.chips[i] > 0 ? "+" : ""}${num(v.chips[i])}`).join(", ")) : null,
        h("div", { class: "row" },
          h("button", { id: "close-scores", onclick: close }, t("Close")),
          final && isHost ? h("button", { class: "primary", id: "rematch", onclick: () => send({ type: "rematch" }) }, t("Rematch")) : null,
          final && !isHost ? h("span", { class: "muted" }, t("The host can start a rematch.")) : null,
          final ? h("a", { href: `/history/${table.code}`, "data-link": true, onclick: close }, t("Replay this game")) : null,
          final ? h("a", { href: `/review/${table.code}`, "data-link": true, onclick: close, id: "review-link" }, t("Review this game")) : null)));
    document.body.append(modal);
    modal.querySelector("#close-scores").focus();
  }

  function tickClock() {
    const el = document.getElementById("clock");
    if (!el) return;
    const kind = state.clock.kind;
    el.hidden = clockEnds === null || kind === "bot";
    if (el.hidden) return;
    const left = Math.max(0, (clockEnds - performance.now()) / 1000);
    const share = clockTotal ? Math.min(1, left / clockTotal) : 0;
    el.querySelector("#clock-bar > span").style.width = `${Math.round(share * 100)}%`;
    el.querySelector("#clock-bar").setAttribute("aria-valuenow", String(Math.ceil(left)));
    const low = left < Math.min(5, (clockTotal || 10) / 3);
    const mine = state.view && state.view.to_act === state.you;
    const seconds = Math.ceil(left);
    el.querySelector("#clock-text").textContent = kind === "absent" ? t("a bot plays in {seconds} s", { seconds })
      : low && mine ? t("Hurry: {seconds} s", { seconds }) : t("{seconds} s left", { seconds });
    el.classList.toggle("low", low);
  }
  clockTimer = setInterval(() => { tickClock(); tickConnection(); }, 250);

  function onKey(e) {
    if (!state || !state.view || e.target.tagName === "INPUT" || document.querySelector(".modal") && e.key !== "Escape" && e.key !== "s") {
      if (e.key === "Escape") document.querySelectorAll(".modal").forEach((x) => x.remove());
      return;
    }
    const v = state.view;
    const playable = (v.hand ? sortHand(v.hand) : []).filter((c) => v.legal.some((a) => a.type === "play" && a.card === c));
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!playable.length) return;
      selected = e.key === "ArrowRight" ? (selected + 1) % playable.length : (selected - 1 + playable.length) % playable.length;
      render();
      e.preventDefault();
    } else if (e.key === "Enter" || e.key === " ") {
      if (callBuffer) {
        const n = Number(callBuffer);
        callBuffer = "";
        const a = v.legal.find((x) => (x.type === "call" && !x.blind || x.type === "bid") && x.tricks === n);
        if (a) act(a); else toast(bidWord(v) === "bid" ? t("You cannot bid {tricks} now", { tricks: n }) : t("You cannot call {tricks} now", { tricks: n }));
        e.preventDefault();
      } else if (selected >= 0 && playable[selected]) {
        act({ type: "play", card: playable[selected] });
        e.preventDefault();
      }
    } else if (/^[0-9]$/.test(e.key)) {
      callBuffer = (callBuffer + e.key).slice(-2);
      toast(bidWord(v) === "bid" ? t("Bid {tricks}? Press Enter", { tricks: num(Number(callBuffer)) }) : t("Call {tricks}? Press Enter", { tricks: num(Number(callBuffer)) }), 1500);
    } else if (e.key === "h" || e.key === "H") {
      send({ type: "hint" });
    } else if (e.key === "s" || e.key === "S") {
      if (document.querySelector(".modal") || dockedScores) {
        document.querySelectorAll(".modal").forEach((x) => x.remove());
        dockedScores = false;
        render();
      } else showScores(v.phase === "over");
    } else if (e.key === "Escape") {
      document.querySelectorAll(".modal").forEach((x) => x.remove());
      if (dockedScores) { dockedScores = false; render(); }
    }
  }
  document.addEventListener("keydown", onKey);

  leave = () => {
    closed = true;
    if (ws) ws.close();
    clearInterval(clockTimer);
    document.removeEventListener("keydown", onKey);
    document.querySelectorAll(".modal").forEach((x) => x.remove());
  };
  const handoff = new URLSearchParams(location.hash.slice(1)).get("handoff");
  if (handoff) {
    history.replaceState(null, "", location.pathname);  // the one-time code leaves the address bar
    api("POST", `/api/tables/${code}/claim`, { handoff }).then((claimed) => {
      token = claimed.token;
      store.setItem(tokenKey(code), token);
      toast(t("This device has your seat now."));
    }, (x) => toast(x.message, 8000)).finally(connect);
  } else {
    connect();
  }
}

// A wide table scrolls sideways inside its panel rather than widening the page on a phone.
const PHONE = window.matchMedia("(max-width: 560px)");

// "Deal 2 of 5", or "Deal 3" in a match without a deal limit.
function dealOf(number, total) {
  return total ? t("Deal {number} of {total}", { number, total }) : t("Deal {number}", { number });
}

function article(word) {  // English's a or an (the other languages' messages have none)
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

function botMark() {
  return h("span", { class: "bot-mark", title: t("a bot"), "aria-label": t("bot") }, " ⚙");
}

function scrolling(table) {
  return h("div", { class: "table-wrap" }, table);
}

// --- what a view says, in the table's words ---------------------------------------------------
// Every game's view has the same deal, trick and score fields (totals in tenths of a point);
// what its contract keeps is its own (Call Break's calls; the related games' bids and who sits
// out), and these read each field the view has, so one renderer draws every game.

const PHASE_TEXT = {
  redeal_claim: () => t("Redeal claims"), call: () => t("Calling"), auction: () => t("Bidding"), trump: () => t("Naming trump"),
  join: () => t("Play or sit out"), exchange: () => t("Exchanging cards"), settle: () => t("Bidder's choice"), play: () => t("Playing"),
  over: () => t("Game over"),
};

// What the seat to act is doing, by phase: "Ann to call", not "to play", during the calls.
const TO_ACT = {
  redeal_claim: (name) => t("{name} to claim or keep", { name }), call: (name) => t("{name} to call", { name }),
  auction: (name) => t("{name} to bid", { name }), trump: (name) => t("{name} to name trump", { name }),
  join: (name) => t("{name} to choose", { name }), exchange: (name) => t("{name} to exchange", { name }),
  settle: (name) => t("{name} to choose", { name }), play: (name) => t("{name} to play", { name }),
};

function bidWord(v) {
  return v.legal.some((a) => a.type === "bid") ? "bid" : "call";
}

function trickSeats(trick, players) {
  return trick.seats || trick.cards.map((_, i) => (trick.leader + i) % players);
}

// A seat's tricks this deal, against its call where the game has calls.
function tricksLine(v, seat) {
  if (v.calls) {
    const call = v.calls[seat];
    if (call === null) return v.phase === "call" ? t("calling…") : "";
    const line = t("won {won} / called {call}", { won: v.won[seat], call });
    return v.blind[seat] ? `${line} ${t("blind")}` : line;
  }
  return tn("{n} trick", "{n} tricks", v.won[seat]);
}

// A seat's part in the hand's contract, where the game has one: bid or pass, in or out, exchanges.
function seatNotes(v, seat) {
  if (v.in_game && !v.in_game[seat]) return t("out of the game");
  const bits = [];
  if (v.bids && v.bids[seat] !== null) bits.push(t("bid {tricks}", { tricks: v.bids[seat] }));
  else if (v.passed && v.passed[seat]) bits.push(t("passed"));
  if (v.declarer === seat && v.contract !== null && v.contract !== undefined) bits.push(t("contract {tricks}", { tricks: v.contract }));
  if (v.joined && v.joined[seat] === true) bits.push(t("in"));
  else if (v.joined && v.joined[seat] === false) bits.push(t("out"));
  if (v.exchanged && v.exchanged[seat] !== null) bits.push(t("took {count}", { count: v.exchanged[seat] }));
  if (v.active && v.phase === "play" && !v.active[seat]) bits.push(t("not playing"));
  return bits.join(" · ");
}

// An action in words: "play the 10 of hearts" for a hint; with the seats' names, "Ann plays …".
// Each is a whole sentence per form, so each language can put the name and the verb its own way.
function describeAction(a, names) {
  const name = a.seat !== undefined && names ? personName(names[a.seat]) : null;
  const say = (base, third, args = {}) => format(name ? third : base, { name, ...args });  // both already in the reader's words
  const card = a.card ? cardName(a.card) : "";
  const count = a.cards ? a.cards.length : a.count;
  if (a.type === "play") return say(t("play the {card}"), t("{name} plays the {card}"), { card });
  if (a.type === "call") {
    return a.blind ? say(t("call {tricks} blind"), t("{name} calls {tricks} blind"), { tricks: a.tricks })
      : say(t("call {tricks}"), t("{name} calls {tricks}"), { tricks: a.tricks });
  }
  if (a.type === "look") return say(t("look at the cards"), t("{name} looks at the cards"));
  if (a.type === "redeal") return a.claim ? say(t("claim a redeal"), t("{name} claims a redeal")) : say(t("keep the hand"), t("{name} keeps the hand"));
  if (a.type === "bid") return say(t("bid {tricks}"), t("{name} bids {tricks}"), { tricks: a.tricks });
  if (a.type === "pass") return say(t("pass"), t("{name} passes"));
  if (a.type === "trump") return say(t("name {suit} trump"), t("{name} names {suit} trump"), { suit: SUITS[a.suit] });
  if (a.type === "join") return a.playing ? say(t("play the hand"), t("{name} plays the hand")) : say(t("sit this hand out"), t("{name} sits this hand out"));
  if (a.type === "exchange") return say(t("exchange {count} card(s)"), t("{name} exchanges {count} card(s)"), { count });
  if (a.type === "settle") {
    return a.penalize_others ? say(t("give each other player +{points}"), t("{name} gives each other player +{points}"), { points: 5 })
      : say(t("take -{points}"), t("{name} takes -{points}"), { points: 5 });
  }
  return a.type;
}

// A seat's line in a replay: its contract, tricks and score so far.
function seatSummary(v, seat) {
  const notes = seatNotes(v, seat);
  const call = v.calls ? `${t("called {call}", { call: v.calls[seat] ?? "–" })}, ` : "";
  const score = points(v.totals[seat]);
  return ` — ${call}${t("won {won}", { won: v.won[seat] })}, ${t("total {points}", { points: score })}${notes ? `, ${notes}` : ""}`;
}

// The score table of a view: one row per deal scored, the running totals below.
function scoreTable(names, v) {
  const cell = (r, s) => {
    if (r.calls) return `${num(r.won[s])}/${num(r.calls[s])}${r.blind[s] ? t("B") : ""} → ${points(r.points[s])}`;
    if (r.active && !r.active[s]) return `– ${r.points[s] ? points(r.points[s]) : ""}`;
    return `${t("{won} tr", { won: r.won[s] })} → ${r.points[s] > 0 ? "+" : ""}${points(r.points[s])}`;
  };
  return h("div", { class: "score-block" }, scrolling(h("table", { class: "scores", id: "game-scores" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Deal")), names.map((n) => h("th", {}, personName(n))))),
    h("tbody", {}, v.results.map((r) => h("tr", { title: r.note ? said(r.words, r.note) : null }, h("td", {}, r.tiebreak ? t("tie-break") : num(r.number)),
      r.points.map((p, s) => h("td", { title: r.calls ? t("called {call}, won {won}", { call: r.calls[s], won: r.won[s] }) : null }, cell(r, s)))))),
    h("tfoot", {}, h("tr", {}, h("td", {}, t("Total")), v.totals.map((total) => h("td", {}, points(total))))))),
    // The cells' key in words on the page (a tooltip never shows on a phone).
    v.results.length ? h("p", { class: "legend", id: "score-legend" }, v.results[0].calls
      ? t("Each cell: tricks won/called → points (B: called blind).")
      : t("Each cell: tricks won → points; – : not playing that hand.")) : null,
    v.results.filter((r) => r.note).map((r) => h("p", { class: "legend" }, `${t("Deal {number}", { number: r.number })}: ${said(r.words, r.note)}`)));
}

// --- history and replay --------------------------------------------------------------------

async function historyPage() {
  const data = await api("GET", "/api/history");
  const m = await getMeta();
  // A game's rules by their name: its preset's title (Call Bridge is a preset of Call Break's).
  const rulesTitle = (g) => {
    const game = m.games.find((x) => x.name === (g.game || "callbreak"));
    const preset = game && game.presets.find((p) => p.name === g.preset);
    return preset ? preset.title : game ? game.title : g.preset;
  };
  app.append(h("div", { class: "panel" }, h("h2", {}, t("Finished games")),
    data.games.length ? scrolling(h("table", { class: "scores", id: "history" },
      h("thead", {}, h("tr", {}, h("th", {}, t("When")), h("th", {}, t("Rules")), h("th", {}, t("Players (total)")), h("th", {}, ""))),
      h("tbody", {}, data.games.map((g) => h("tr", {},
        h("td", {}, g.finished_at ? new Date(g.finished_at).toLocaleString(locale) : ""),
        h("td", {}, rulesTitle(g)),
        h("td", {}, g.seats.map((s) => `${s.winner ? "★ " : ""}${personName(s.name)} ${points(s.total)}`).join(", ")),
        h("td", {}, h("a", { href: `/history/${g.code}`, "data-link": true }, t("Replay")), " ",
          h("a", { href: `/review/${g.code}`, "data-link": true }, t("Review"))))))))
      : h("p", { class: "muted" }, t("No finished games yet."))));
}

async function replayPage(code) {
  let data;
  try { data = await api("GET", `/api/history/${code}`); } catch (x) {
    app.append(h("p", { class: "error" }, x.message)); return;
  }
  let i = 0;
  let playing = null;
  const view = h("div", {});
  const slider = h("input", { type: "range", min: 0, max: data.frames.length - 1, value: 0, "aria-label": t("Move") });
  slider.addEventListener("input", () => { i = Number(slider.value); show(); });
  const step = (d) => { i = Math.max(0, Math.min(data.frames.length - 1, i + d)); slider.value = i; show(); };
  // Every seat's hand as far as it was seen, with the seat's line (contract, tricks, total).
  const hands = (f, line) => h("div", { class: "replay-hands" }, data.seats.map((n, s) => h("div", { class: "panel" },
    h("div", {}, h("strong", {}, personName(n)), line(s)),
    h("div", { class: "hand" }, sortHand(f.hands[s].filter((c) => c !== "??")).map((c) => h("span", { class: "card" }, cardSvg(c))),
      f.hands[s].filter((c) => c === "??").length ? h("span", { class: "muted" }, ` ${t("+{count} unseen", { count: f.hands[s].filter((c) => c === "??").length })}`) : null))));
  function show() {
    const f = data.frames[i];
    const v = f.view;
    const a = f.action;
    const number = v.deal_number;
    const of = v.deal_limit;
    view.replaceChildren(
      h("p", {}, h("strong", {}, `${dealOf(of ? Math.min(number, of) : number, null)} · ${t("move {number}/{total}", { number: i + 1, total: data.frames.length })}: `),
        describeAction(a, data.seats)),
      hands(f, (s) => seatSummary(v, s)),
      h("div", { class: "felt" }, h("div", { class: "row" }, t("Trick:"), " ",
        (v.trick.length ? v.trick : (v.tricks.length && a.type === "play" ? v.tricks[v.tricks.length - 1].cards : []))
          .map((c) => h("span", { class: "card", style: "margin-left:4px" }, cardSvg(c))))),
      scoreTable(data.seats, v));
  }
  app.append(h("div", { class: "panel" }, h("h2", {}, t("Replay"), " ", grouped(data.code)),
    h("p", {}, tn("Winner: {names}", "Winners: {names}", data.winners.length, { names: data.winners.map((s) => personName(data.seats[s])).join(", ") })),
    h("div", { class: "row" },
      h("button", { onclick: () => step(-1) }, t("◀ Back")), h("button", { onclick: () => step(1) }, t("Next ▶")),
      h("button", { onclick: (e) => {
        if (playing) { clearInterval(playing); playing = null; e.target.textContent = t("Play"); return; }
        e.target.textContent = t("Pause");
        playing = setInterval(() => { if (i >= data.frames.length - 1) { clearInterval(playing); playing = null; } else step(1); }, 600);
      } }, t("Play")), slider), view));
  leave = () => { if (playing) clearInterval(playing); };
  show();
}

async function statsPage() {
  const data = await api("GET", "/api/stats");
  const percent = (share) => t("{percent}%", { percent: Math.round(share * 100) });
  const row = (r, rank) => h("tr", {}, h("td", {}, num(rank + 1)), h("td", {}, personName(r.name), r.kind === "bot" ? botMark() : r.player ? h("span", { class: "muted", title: t("player id") }, ` #${r.player.slice(0, 4)}`) : ""),
    h("td", {}, num(r.games)), h("td", {}, num(r.wins)), h("td", {}, percent(r.win_rate)),
    h("td", {}, num(r.avg_per_deal)), h("td", {}, percent(r.call_accuracy)));
  app.append(h("div", { class: "panel" }, h("h2", {}, t("Leaderboard")),
    data.leaderboard.length ? scrolling(h("table", { class: "scores", id: "leaderboard" },
      h("thead", {}, h("tr", {}, ["#", t("Player"), t("Games"), t("Wins"), t("Win rate"), t("Avg per deal"), t("Calls made")].map((x) => h("th", {}, x)))),
      h("tbody", {}, data.leaderboard.map(row)))) : h("p", { class: "muted" }, t("Finish a game to appear here."))));
}

// --- scorekeeper ---------------------------------------------------------------------------

async function newSheetPage() {
  const m = await getMeta();
  const presetSel = h("select", { id: "sheet-preset" }, m.presets.map((p) => h("option", { value: p.name }, p.title)));
  const names = [0, 1, 2, 3].map((i) => h("input", { id: `sheet-name-${i}`, maxlength: 24, value: [t("North"), t("East"), t("South"), t("West")][i], "aria-label": t("Player {n}'s name", { n: num(i + 1) }) }));
  const err = h("p", { class: "error" });
  app.append(h("form", { class: "panel", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const made = await api("POST", "/api/sheets", { preset: presetSel.value, names: names.map((n) => n.value), deals: [] });
      store.setItem(sheetKey(made.code), made.key);
      navigate(made.link);
    } catch (x) { err.textContent = x.message; }
  } }, h("h2", {}, t("Scorekeeper")),
    h("p", { class: "muted" }, t("For a game with real cards: enter each deal's calls and tricks; the totals follow the rules you pick.")),
    h("label", { for: "sheet-preset" }, t("Rules")), presetSel,
    h("label", {}, t("Players")), h("div", { class: "row" }, names),
    h("p", {}, h("button", { class: "primary", id: "sheet-create", type: "submit" }, t("Start the sheet"))), err));
}

async function sheetPage(code) {
  const key = store.getItem(sheetKey(code));
  await getMeta();  // the rule sets' names, in the reader's language
  let sheet;
  try { sheet = (await api("GET", `/api/sheets/${code}`)).sheet; } catch (x) {
    app.append(h("p", { class: "error" }, x.message)); return;
  }
  const wrap = h("div", {});
  app.append(wrap);
  function render() {
    const link = `${location.origin}/s/${code}`;
    const rows = sheet.rows.map((r, n) => h("tr", {}, h("td", {}, num(n + 1)),
      r.points.map((p, s) => h("td", {}, `${num(r.won[s])}/${num(r.calls[s])}${r.blind[s] ? t("B") : ""} → ${points(p)}`))));
    const table = h("table", { class: "scores", id: "sheet-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Deal")), sheet.names.map((n) => h("th", {}, n)))),
      h("tbody", {}, rows),
      h("tfoot", {}, h("tr", {}, h("td", {}, t("Total")), sheet.totals.map((total, s) => h("td", { "data-total": s }, points(total))))));
    const [lo, hi] = sheet.call_range;
    const inputs = sheet.names.map((n, s) => ({
      call: h("input", { type: "number", min: lo, max: hi, id: `call-${s}`, "aria-label": t("{name} called", { name: n }) }),
      won: h("input", { type: "number", min: 0, max: 13, id: `won-${s}`, "aria-label": t("{name} won", { name: n }) }),
      blind: h("input", { type: "checkbox", id: `blind-${s}`, "aria-label": t("{name} called blind", { name: n }) }),
    }));
    const err = h("p", { class: "error", id: "sheet-error" });
    async function addDeal(e) {
      e.preventDefault();
      err.textContent = "";
      const deal = { calls: inputs.map((x) => Number(x.call.value)), won: inputs.map((x) => Number(x.won.value)),
                     blind: inputs.map((x) => x.blind.checked) };
      const wonSum = deal.won.reduce((a, b) => a + b, 0);
      if (inputs.some((x) => x.call.value === "" || x.won.value === "")) { err.textContent = t("Enter every call and every trick count."); return; }
      if (wonSum !== 13) { err.textContent = t("The tricks add up to {sum}; a deal has {tricks}.", { sum: wonSum, tricks: 13 }); return; }
      try {
        sheet = (await api("PUT", `/api/sheets/${code}`, { key, sheet: { ...sheet, deals: [...sheet.deals, deal] } })).sheet;
        render();
      } catch (x) { err.textContent = x.message; }
    }
    async function undo() {
      try {
        sheet = (await api("PUT", `/api/sheets/${code}`, { key, sheet: { ...sheet, deals: sheet.deals.slice(0, -1) } })).sheet;
        render();
      } catch (x) { err.textContent = x.message; }
    }
    const leaders = sheet.leaders.map((s) => sheet.names[s]).join(", ");
    const presetTitle = meta ? (meta.presets.find((p) => p.name === sheet.preset) || { title: sheet.preset }).title : sheet.preset;
    wrap.replaceChildren(h("div", { class: "panel" },
      h("h2", {}, t("Score sheet"), " ", grouped(code)),
      h("p", {}, `${presetTitle}${sheet.deals_planned ? ` · ${tn("{n} deal", "{n} deals", sheet.deals_planned)}` : ""}`,
        sheet.rows.length ? ` · ${sheet.complete ? t("finished, won by: {names}", { names: leaders }) : t("leading: {names}", { names: leaders })}` : ""),
      h("div", { class: "row" }, h("input", { value: link, readonly: true, id: "sheet-link", "aria-label": t("Score sheet link") }),
        h("span", { class: "muted" }, key ? t("Anyone with the link can follow the score; only this browser can edit.") : t("View only."))),
      scrolling(table),
      key ? h("form", { onsubmit: addDeal, id: "deal-form" }, h("h3", {}, t("Deal {number}", { number: sheet.rows.length + 1 })),
        h("table", { class: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("Called ({low}–{high})", { low: lo, high: hi })), h("th", {}, t("Won")),
          sheet.blind_calls ? h("th", {}, t("Blind")) : null)),
          h("tbody", {}, inputs.map((x, s) => h("tr", {}, h("td", {}, sheet.names[s]), h("td", {}, x.call), h("td", {}, x.won),
            sheet.blind_calls ? h("td", {}, x.blind) : null)))),
        h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "add-deal" }, t("Add deal")),
          sheet.deals.length ? h("button", { type: "button", onclick: undo }, t("Undo last deal")) : null), err) : null));
  }
  render();
}

topbar();
route();
