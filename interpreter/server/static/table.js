// The cardrules table: draws one seat's state as the server sends it (a table over a websocket,
// or the steps of a replay over /api/replay). Plain JavaScript, no build step, no libraries.
// Text from the game is set with textContent only.
"use strict";

const params = new URLSearchParams(location.search);
let info = null;     // /api/info
let state = null;    // the last state drawn
let socket = null;   // a table's websocket
let replayView = params.get("view") || params.get("seat") || "full";
let picked = {version: null, ids: new Set()};  // the cards picked so far in an unordered pick
const HIGHLIGHT_MS = 5000;  // how long the cards another seat's move touched stay highlighted
let highlight = {number: null, ids: [], until: 0, timer: null};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

// ---------------------------------------------------------------- drawing
function cardNode(card) {
  const node = el("div", {"class": "card face", "data-card-id": String(card.id), "data-name": card.name,
                          title: card.text ? `${card.name}: ${card.text}` : card.name},
    el("div", {"class": "name", text: card.name}),
    card.type ? el("div", {"class": "type", text: card.type}) : null);
  if (card.lines && card.lines.length) {
    const list = el("ul");
    for (const line of card.lines) list.append(el("li", {text: line}));
    node.append(list);
  }
  if (card.text) {
    node.setAttribute("data-text", card.text);
    node.append(el("div", {"class": "text", text: card.text}));  // its printed rules text
  }
  return node;
}

function facedownNode(part) {
  const stack = el("div", {"class": "stack"});
  const shown = Math.min(part.count, 3);
  for (let i = 0; i < shown; i++) {
    const back = el("div", {"class": "card back"});
    back.style.left = `${i * 3}px`;
    back.style.top = `${i * -2}px`;
    stack.append(back);
  }
  const pile = el("div", {"class": "facedown", "data-count": String(part.count)}, stack,
    el("span", {"class": "count", text: `${part.count} card${part.count === 1 ? "" : "s"} face down`}));
  if (part.cards.length && part.open) {
    const box = el("details", {"class": "contents"}, el("summary", {text: `show the ${part.cards.length} cards`}));
    const row = el("div", {"class": "row"});
    for (const card of part.cards) row.append(cardNode(card));
    box.append(row);
    pile.append(box);
  } else if (part.cards.length) {
    const row = el("div", {"class": "row revealed"});
    for (const card of part.cards) row.append(cardNode(card));
    pile.append(el("span", {text: "revealed:"}), row);
  }
  return pile;
}

function ownerName(owner) {
  if (owner === "shared") return "shared";
  const seat = Number(owner.slice(1));
  const entry = state.seats.find((s) => s.seat === seat);
  const mine = state.seat === seat ? " (you)" : "";
  return `${owner}${entry ? ` · ${entry.name}` : ""}${mine}`;
}

function drawZones() {
  const box = document.getElementById("zones");
  box.replaceChildren();
  const owners = new Map();
  for (const zone of state.zones) {
    if (!owners.has(zone.owner)) {
      const section = el("section", {"class": "owner" + (zone.owner === `P${state.seat}` ? " mine" : ""),
                                     "data-owner": zone.owner}, el("h2", {text: ownerName(zone.owner)}));
      owners.set(zone.owner, section);
      box.append(section);
    }
    const node = el("div", {"class": "zone", "data-zone": zone.zone}, el("div", {"class": "zone-label", text: zone.label}));
    for (const part of zone.rows) {
      const row = el("div", {"class": `row layout-${part.kind}`, "data-row": part.row || ""});
      if (part.row) row.append(el("div", {"class": "row-label", text: part.row}));
      if (part.kind === "hidden") row.append(facedownNode(part));
      else if (part.kind === "backs") {  // the viewer's own cards that every other player sees: a back per place
        for (const card of part.cards) {
          row.append(card.back ? el("div", {"class": "card back", "data-card-id": String(card.id),
                                            title: `position ${card.position}`}) : cardNode(card));
        }
        if (!part.cards.length) row.append(el("span", {"class": "empty", text: "empty"}));
      }
      else if (!part.cards.length) row.append(el("span", {"class": "empty", text: "empty"}));
      else for (const card of part.cards) row.append(cardNode(card));
      node.append(row);
    }
    owners.get(zone.owner).append(node);
  }
}

function send(option) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return notice("not connected: reload the page");
  document.body.classList.add("busy");
  socket.send(JSON.stringify({type: "move", decision: state.version, option: option}));
}

function drawDecision() {
  const decision = state.decision;
  const prompt = document.getElementById("prompt");
  const moves = document.getElementById("moves");
  moves.replaceChildren();
  if (!decision) {
    prompt.textContent = state.result ? "game over" : "";
    return;
  }
  if (!decision.yours) {
    const whose = decision.player === state.seat ? "your" : `P${decision.player}'s`;
    prompt.textContent = decision.prompt ? `${whose} decision: ${decision.prompt}` : `${whose} decision`;
    for (const move of decision.moves) moves.append(el("div", {"class": "offered", text: move.label}));
    return;
  }
  prompt.textContent = decision.prompt || "your decision";
  if (decision.pick) return drawPick(decision.pick, moves);
  const single = new Map();  // card id -> the moves about that card alone
  for (const move of decision.moves) {
    const button = el("button", {"class": "move", "data-option": String(move.option), text: move.label});
    button.addEventListener("click", () => send(move.option));
    moves.append(button);
    for (const id of [...move.cards, ...move.copies]) {
      const card = document.querySelector(`.card[data-card-id="${id}"]`);
      if (card) card.classList.add("involved");
    }
    if (move.cards.length === 1) {  // a move about one card: that card (or a copy of it) makes it
      for (const id of [move.cards[0], ...move.copies]) single.set(String(id), [...(single.get(String(id)) || []), move]);
    }
  }
  for (const [id, list] of single) {
    if (list.length !== 1) continue;  // several moves about one card: the buttons say which
    for (const card of document.querySelectorAll(`.card[data-card-id="${id}"]`)) {
      card.classList.add("playable");
      card.setAttribute("data-option", String(list[0].option));
      card.title = card.dataset.text ? `${list[0].label}\n${card.dataset.text}` : list[0].label;
      card.addEventListener("click", () => send(list[0].option));
    }
  }
}

// An unordered pick (choose exactly / up to N cards): the player toggles cards, on the table or
// in the list, then confirms; the confirmation sends the one option whose set is the picked set.
function pickedKey(ids) {
  return [...ids].map(Number).sort((a, b) => a - b).join("+");
}

function drawPick(pick, moves) {
  if (picked.version !== state.version) picked = {version: state.version, ids: new Set()};
  const options = new Map(pick.sets.map((set) => [set.cards.join("+"), set.option]));
  const wanted = pick.least === pick.most ? `exactly ${pick.most}` : pick.least ? `${pick.least} to ${pick.most}`
    : `up to ${pick.most}`;
  moves.append(el("div", {"class": "pick-hint", text: `pick ${wanted}, then confirm`}));
  const list = el("div", {"class": "pick-list"});
  const confirm = el("button", {"class": "move confirm", id: "pick-confirm"});
  const update = () => {
    for (const node of document.querySelectorAll("[data-pick-id]")) {
      node.classList.toggle("picked", picked.ids.has(node.getAttribute("data-pick-id")));
    }
    const option = options.get(pickedKey(picked.ids));
    const names = pick.cards.filter((c) => picked.ids.has(String(c.id))).map((c) => c.label);
    confirm.textContent = `confirm: ${names.length ? names.join(", ") : "nothing"}`;
    confirm.disabled = option === undefined;
    confirm.setAttribute("data-option", option === undefined ? "" : String(option));
  };
  const toggle = (id) => {
    if (picked.ids.has(id)) picked.ids.delete(id); else picked.ids.add(id);
    update();
  };
  for (const card of pick.cards) {
    const id = String(card.id);
    const button = el("button", {"class": "pick-card", "data-pick-id": id, "data-card-id": id, text: card.label});
    button.addEventListener("click", () => toggle(id));
    list.append(button);
    for (const node of document.querySelectorAll(`#table .card[data-card-id="${id}"]`)) {
      node.classList.add("pickable");
      node.setAttribute("data-pick-id", id);
      node.title = `${card.label}: click to pick or unpick`;
      node.addEventListener("click", () => toggle(id));
    }
  }
  confirm.addEventListener("click", () => {
    const option = options.get(pickedKey(picked.ids));
    if (option !== undefined) send(option);
  });
  moves.append(list, confirm);
  update();
}

function drawPlayers() {
  const box = document.getElementById("players");
  box.replaceChildren(el("h2", {text: "players"}));
  for (const player of state.players) {
    const entry = state.seats.find((s) => s.seat === player.seat);
    const text = player.attributes.map(([k, v]) => `${k} ${v}`).join(" · ");
    box.append(el("div", {"class": "player" + (player.seat === state.seat ? " mine" : ""), "data-seat": String(player.seat),
                          text: `P${player.seat}${entry ? ` (${entry.name})` : ""}: ${text || "-"}`}));
  }
  const globals = document.getElementById("globals");
  globals.textContent = state.globals.map(([k, v]) => `${k}: ${v}`).join(" · ");
}

function drawLog() {
  const log = document.getElementById("log");
  log.replaceChildren(...state.log.map((line) => el("li", {text: line})));
  log.scrollTop = log.scrollHeight;
}

function drawHeader() {
  document.title = `${state.title} · cardrules`;
  document.getElementById("title").textContent = state.title;
  const who = state.seat === "full" ? "full view"
    : state.mode === "replay" ? `P${state.seat}'s view` : `you are P${state.seat}`;
  document.getElementById("who").textContent = who;
  document.getElementById("turn").textContent =
    `turn ${state.turn ?? "-"} · ${state.phase || "-"}${state.active ? ` · active ${state.active}` : ""}`;
  const status = document.getElementById("status");
  status.className = state.thinking ? "thinking" : "";
  if (state.result) status.textContent = "game over";
  else if (state.failure) status.textContent = state.failure;
  else if (state.thinking) status.textContent = `${seatName(state.thinking_seat)} is thinking`;
  else if (state.decision && state.decision.yours) status.textContent = "your move";
  else if (state.decision && state.mode === "replay") status.textContent = `P${state.decision.player} decides`;
  else if (state.decision) status.textContent = `waiting for P${state.decision.player}`;
  else status.textContent = "";
  const result = document.getElementById("result");
  result.textContent = state.result_text ? `result: ${state.result_text}` : "";
  result.hidden = !state.result_text;
}

// An agent's decision: the server says when it starts ("thinking"), and the state after it names
// the cards the move touched (`last_move`), highlighted for a few seconds or until the next move.
function seatName(seat) {
  const entry = state && state.seats.find((s) => s.seat === seat);
  return `P${seat}${entry ? ` (${entry.name})` : ""}`;
}

function showThinking(seat, name) {
  const box = document.getElementById("thinking");
  if (seat === null || seat === undefined) {
    box.hidden = true;
    document.body.dataset.thinkingSeat = "";
    for (const node of document.querySelectorAll(".owner.thinking")) node.classList.remove("thinking");
    return;
  }
  document.getElementById("thinking-text").textContent = `P${seat}${name ? ` (${name})` : ""} is thinking`;
  box.hidden = false;
  document.body.dataset.thinkingSeat = String(seat);
  const owner = document.querySelector(`.owner[data-owner="P${seat}"]`);
  if (owner) owner.classList.add("thinking");
}

function drawLastMove() {
  const move = state.last_move;
  const line = document.getElementById("last-move");
  const others = move && move.seat !== state.seat;
  line.hidden = !others;
  line.textContent = others ? move.text.replace(/^P\d+ /, `${seatName(move.seat)} `) : "";
  if (others && move.number !== highlight.number) {
    clearTimeout(highlight.timer);
    highlight = {number: move.number, ids: move.cards.map(String), until: Date.now() + HIGHLIGHT_MS, timer: null};
    highlight.timer = setTimeout(() => {
      for (const node of document.querySelectorAll(".card.moved")) node.classList.remove("moved");
      document.getElementById("last-move").classList.remove("fresh");
    }, HIGHLIGHT_MS);
  } else if (!others) {
    highlight.ids = [];
  }
  const fresh = others && Date.now() < highlight.until;
  line.classList.toggle("fresh", fresh);
  if (!fresh) return;
  for (const id of highlight.ids) {
    for (const node of document.querySelectorAll(`#table .card[data-card-id="${id}"]`)) node.classList.add("moved");
  }
}

function draw(next) {
  state = next;
  drawHeader();
  drawZones();
  drawLastMove();
  showThinking(state.thinking ? state.thinking_seat : null,
               state.thinking ? (state.seats.find((s) => s.seat === state.thinking_seat) || {}).name : null);
  drawPlayers();
  drawDecision();
  drawLog();
  if (state.mode === "replay") drawReplayBar();
  document.body.classList.remove("busy");
  document.body.dataset.version = String(state.version ?? "");
  document.body.dataset.step = String(state.step ?? "");
  document.body.dataset.view = String(state.seat);
  document.body.dataset.yours = state.decision && state.decision.yours ? "1" : "0";
  document.body.dataset.thinking = state.thinking ? "1" : "0";
  document.body.dataset.over = state.result ? "1" : "0";
}

// ---------------------------------------------------------------- a table
// A seat's page is opened at the address `cardrules serve` printed for it: /?seat=N&token=T. The
// token is the seat's secret; it goes to the server with the socket and nowhere else.
function connect() {
  const seat = params.get("seat");
  const token = params.get("token");
  if (!token) {
    return notice("this table's seats are opened at the addresses cardrules serve printed when it started, " +
                  "one per human seat (/?seat=N&token=...): open yours");
  }
  const query = new URLSearchParams({token: token});
  if (seat) query.set("seat", seat);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let opened = false;
  socket = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
  socket.addEventListener("open", () => { opened = true; });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "state") {
      notice("");
      draw(data);
    } else if (data.type === "thinking") {
      if (state) showThinking(data.seat, data.name);
    } else if (data.type === "error") {
      document.body.classList.remove("busy");
      notice(data.message);
    }
  });
  socket.addEventListener("close", () => notice(opened
    ? "the connection to the table closed: reload the page to sit down again"
    : "the table refused this address: open the one cardrules serve printed for your seat " +
      "(a seat's token changes each time the server starts)"));
}

// ---------------------------------------------------------------- a replay
// Clicks faster than the server answers: each counts from the step last asked for (not the one
// drawn), and only the answer to the last request is drawn, whatever order the answers come in.
let replayAsked = null;
let replayTicket = 0;

async function showStep(step) {
  const ticket = ++replayTicket;
  replayAsked = step;
  const answer = await fetch(`/api/replay?step=${step}&view=${encodeURIComponent(replayView)}`);
  const data = await answer.json();
  if (ticket !== replayTicket) return;
  replayAsked = null;
  if (data.type === "error") return notice(data.message);
  notice("");
  draw(data);
  const url = new URL(location.href);
  url.searchParams.set("step", String(step + 1));  // (the address counts as the counter does: from 1)
  url.searchParams.set("view", String(replayView));
  url.searchParams.delete("seat");
  history.replaceState(null, "", url);
}

function drawReplayBar() {
  document.getElementById("replay").hidden = false;
  document.getElementById("step-counter").textContent = `step ${state.step + 1} of ${state.steps}`;
  document.getElementById("taken").textContent =
    state.taken ? `decision taken: ${state.taken}` : (state.result ? "the end" : "the log ends here");
  document.getElementById("step-first").disabled = state.step === 0;
  document.getElementById("step-back").disabled = state.step === 0;
  document.getElementById("step-forward").disabled = state.step >= state.steps - 1;
  document.getElementById("step-last").disabled = state.step >= state.steps - 1;
  const select = document.getElementById("view-select");
  if (!select.options.length) {
    for (const viewer of state.viewers) {
      select.append(el("option", {value: String(viewer), text: viewer === "full" ? "full view" : `P${viewer}`}));
    }
    select.addEventListener("change", () => { replayView = select.value; showStep(replayAsked ?? state.step); });
  }
  select.value = String(state.seat);
}

function startReplay() {
  const go = (delta) => {
    const from = replayAsked ?? state.step;
    const target = Math.max(0, Math.min(state.steps - 1, delta === "first" ? 0 : delta === "last"
      ? state.steps - 1 : from + delta));
    if (target !== from) showStep(target);
  };
  document.getElementById("step-first").addEventListener("click", () => go("first"));
  document.getElementById("step-back").addEventListener("click", () => go(-1));
  document.getElementById("step-forward").addEventListener("click", () => go(1));
  document.getElementById("step-last").addEventListener("click", () => go("last"));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT") return;
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(1);
    else if (event.key === "Home") go("first");
    else if (event.key === "End") go("last");
  });
  const asked = Number(params.get("step") || 1);  // (from 1, as the counter shows it)
  showStep(Number.isInteger(asked) ? Math.min(info.steps - 1, Math.max(0, asked - 1)) : 0);
}

async function start() {
  info = await (await fetch("/api/info")).json();
  document.title = `${info.title} · cardrules`;
  if (info.mode === "replay") startReplay();
  else connect();
}

start();
