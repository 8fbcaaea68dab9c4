// The table page: one WebSocket; the server sends this seat's view, we draw it and send actions.
"use strict";

const ROOM = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
if (params.get("token")) saveRoomKeys(ROOM, {token: params.get("token")});
if (params.get("invite")) saveRoomKeys(ROOM, {invite: params.get("invite")});
if (params.get("hints")) localStorage.setItem("guobiao:hints", params.get("hints"));
if (params.get("lang")) localStorage.setItem("guobiao:lang", params.get("lang"));
history.replaceState(null, "", location.pathname);  // keep secrets out of the address bar

let TILES = {};
let state = null;
let ws = null;
let retry = 0;
let deadlineAt = null;
let nextHandAt = null;
let log = [];
let overlayKind = null;
let shownHand = null;
let shownSession = false;

const $ = (id) => document.getElementById(id);
const hintsBox = $("hints-on");
const labelsBox = $("labels-on");
hintsBox.checked = localStorage.getItem("guobiao:hints") === "1";
labelsBox.checked = localStorage.getItem("guobiao:labels") !== "0";
hintsBox.addEventListener("change", () => { localStorage.setItem("guobiao:hints", hintsBox.checked ? "1" : "0"); render(); });
labelsBox.addEventListener("change", () => { localStorage.setItem("guobiao:labels", labelsBox.checked ? "1" : "0"); render(); });
$("lang").addEventListener("click", () => { toggleLang(); render(); });

// -- tiles: splitTiles, tileLabel, GLYPHS, face, tile are in common.js ----------------------

function back() { return el("span", {class: "tile back"}, el("span", {class: "glyph"}, GLYPHS ? "\u{1F02B}" : "\u00a0")); }

function actionText(text) {
  const [kind, arg] = text.split(" ");
  const acts = t("acts");
  return arg ? `${acts[kind] || kind} ${splitTiles(arg).map(tileLabel).join("")}` : (acts[kind] || kind);
}


// -- the socket ------------------------------------------------------------------------------
function connect() {
  const keys = roomKeys(ROOM);
  const token = keys.token || keys.watch_token || keys.invite || "";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${ROOM}?token=${encodeURIComponent(token)}`);
  ws.onopen = () => { retry = 0; $("status").textContent = t("connected"); };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    $("status").textContent = t("disconnected");
    if (ev.code === 4410) $("status").textContent = t("closed");
    if (ev.code === 4429 && ev.reason) $("status").textContent = ev.reason;
    if ([4403, 4404, 4410, 4429].includes(ev.code)) return;  // refused or closed: no retry
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 500 * retry);
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function act(action) { send({type: "action", action}); }

function nameOf(seat) { return state && state.names_by_seat ? state.names_by_seat[seat] : "?"; }

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      TILES = msg.tiles;
      break;
    case "state":
      state = msg;
      deadlineAt = msg.deadline !== null && msg.deadline !== undefined ? Date.now() + msg.deadline * 1000 : null;
      nextHandAt = msg.next_hand_in !== undefined ? Date.now() + msg.next_hand_in * 1000 : null;
      render();
      // arriving between hands (or after the session): the settlement is in the state too
      if (msg.last_hand && shownHand !== msg.last_hand.hand_number) showHandEnd(msg.last_hand);
      if (msg.session_end && !shownSession) showSessionEnd(msg.session_end);
      break;
    case "event":
      addLog(`${t("winds")[msg.seat]} ${nameOf(msg.seat)} ${actionText(msg.action)}`);
      break;
    case "timeout":
      addLog(`${t("winds")[msg.seat]} ${msg.name}: ${t("timeout")} → ${actionText(msg.action)}`);
      break;
    case "hand_start":
      if (overlayKind === "hand_end") closeOverlay();
      log = [];
      break;
    case "hand_end":
      showHandEnd(msg);
      break;
    case "session_end":
      showSessionEnd(msg);
      break;
    case "error":
      addLog(`⚠ ${msg.message}`);
      if (!state || !state.room.started) $("wait-error").textContent = msg.message;
      break;
  }
}

function addLog(text) {
  log.push(text);
  log = log.slice(-8);
  $("log").replaceChildren(...log.map((line) => el("li", {}, line)));
}

// -- drawing ---------------------------------------------------------------------------------
function render() {
  if (!state) return;
  const room = state.room;
  $("room-name").textContent = room.name;
  if (!room.started) { renderWaiting(room); return; }
  $("waiting").hidden = true;
  $("table").hidden = false;
  renderTable();
}

function renderWaiting(room) {
  $("waiting").hidden = false;
  $("table").hidden = true;
  const keys = roomKeys(ROOM);
  $("wait-places").replaceChildren(...room.places.map((p, i) =>
    el("li", {}, `${"ABCD"[i]} (${t("winds")[i]}) · `,
      p.kind === "empty" ? t("empty") : `${p.name} (${t(p.kind === "bot" ? "bot" : "human")})`,
      state.you === i ? ` ← ${t("you")}` : "")));
  const free = room.places.some((p) => p.kind === "empty");
  $("join-form").hidden = !(free && state.you === null && !keys.token && keys.invite);
  $("need-invite").hidden = !(free && state.you === null && !keys.token && !keys.invite);
  $("join-name").value = $("join-name").value || localStorage.getItem("guobiao:name") || "";
  $("owner").hidden = !keys.owner_token;
  // with the invite (only its holders have it), the link takes a place; without, it watches
  const link = keys.invite ? `${location.origin}/room/${ROOM}?invite=${keys.invite}` : `${location.origin}/room/${ROOM}`;
  $("share-link").value = link;
}

$("join-btn").addEventListener("click", async () => {
  const name = $("join-name").value.trim();
  if (!name) return;
  localStorage.setItem("guobiao:name", name);
  try {
    const joined = await api("POST", `/api/rooms/${ROOM}/join`, {name, invite: roomKeys(ROOM).invite || null});
    saveRoomKeys(ROOM, {token: joined.token});
    ws.close();
  } catch (e) { $("wait-error").textContent = e.message; }
});

$("add-bots").addEventListener("click", async () => {
  try {
    await api("POST", `/api/rooms/${ROOM}/bots`, {owner_token: roomKeys(ROOM).owner_token, kind: $("bot-kind").value});
  } catch (e) { $("wait-error").textContent = e.message; }
});

$("start").addEventListener("click", async () => {
  try {
    await api("POST", `/api/rooms/${ROOM}/start`, {owner_token: roomKeys(ROOM).owner_token, fill: true});
  } catch (e) { $("wait-error").textContent = e.message; }
});

function concealedCount(view, seat) {
  const melds = view.melds[seat].filter((m) => m.kind !== "concealed_kong").length + view.concealed_kongs[seat];
  let n = 13 - 3 * melds;
  if (view.phase === "act" && view.current === seat) n += 1;
  return Math.max(0, n);
}

function renderSeat(view, seat, pos) {
  const place = state.places_by_seat[seat];
  const p = state.room.places[place];
  const box = $("pos-" + pos);
  box.className = `seat-box ${["me", "right", "top", "left"][pos]}` + (view.current === seat && view.phase !== "over" ? " current" : "");
  const head = el("div", {class: "seat-head"},
    el("span", {class: "wind"}, t("winds")[seat]),
    seat === 0 ? el("span", {class: "dealer"}, LANG === "zh" ? "庄" : "D") : null,
    el("span", {class: "name"}, p.name + (state.you === place ? ` (${t("you")})` : "")),
    el("span", {class: "score"}, String(state.scores[place])),
    p.connected ? null : el("span", {class: "offline"}, t("offline")));
  const melds = el("div", {class: "melds"}, view.melds[seat].map((m) =>
    el("span", {class: "meld"}, m.kind === "concealed_kong" && seat !== view.seat && view.phase !== "over"
      ? [back(), back(), back(), back()]
      : m.tiles.map((x, i) => (m.kind === "concealed_kong" && (i === 0 || i === 3)) ? back() : tile(x, {cls: m.claimed === x ? "claimed" : ""})))));
  const hiddenKongs = view.concealed_kongs[seat] - view.melds[seat].filter((m) => m.kind === "concealed_kong").length;
  for (let k = 0; k < hiddenKongs; k++) melds.append(el("span", {class: "meld"}, back(), back(), back(), back()));
  const flowers = el("div", {class: "flowers"}, (view.flowers ? view.flowers[seat] : []).map((f) => tile(f, {cls: "flower"})));
  const concealed = seat === view.seat ? null : el("div", {class: "concealed"}, Array.from({length: concealedCount(view, seat)}, back));
  const pool = view.discards[seat];
  const discards = el("div", {class: "discards"}, pool.map((x, i) =>
    tile(x, {cls: i === pool.length - 1 && view.last_discard && view.current === seat ? "last" : ""})));
  fill(box, head, concealed, melds, flowers, discards);
}

function renderTable() {
  const view = state.view;
  const me = state.seat ?? 0;
  for (let pos = 0; pos < 4; pos++) renderSeat(view, (me + pos) % 4, pos);
  fill($("info"),
    el("span", {}, `${t("round")} ${t("winds")["ESWN".indexOf(view.round_wind)]}`),
    el("span", {}, `${t("hand")} ${state.hand_number + 1}/${state.room.hands}`),
    el("span", {}, `${t("wall")} ${view.wall_remaining}`),
    state.seat === null || state.seat === undefined ? el("span", {class: "muted"}, t("spectating")) : null);
  fill($("center"),
    el("div", {class: "big-wind"}, t("winds")["ESWN".indexOf(view.round_wind)]),
    el("div", {class: "wall"}, `${t("wall")} ${view.wall_remaining}`),
    view.last_discard ? tile(view.last_discard, {cls: "big"}) : null);
  renderHand(view);
  renderActions(view);
  renderHints();
}

function renderHand(view) {
  const box = $("hand");
  if (state.seat === null || state.seat === undefined) { box.replaceChildren(); return; }
  const legal = new Set(view.legal_actions);
  const tiles = [...view.hand];
  if (view.drawn) tiles.splice(tiles.lastIndexOf(view.drawn), 1);
  const make = (x, cls) => {
    const action = `discard ${x}`;
    return tile(x, {button: true, cls, onclick: legal.has(action) ? () => act(action) : null});
  };
  fill(box, tiles.map((x) => make(x, "")), view.drawn ? make(view.drawn, "drawn") : null);
}

function renderActions(view) {
  const box = $("actions");
  const buttons = [];
  for (const action of view.legal_actions) {
    const [kind, arg] = action.split(" ");
    if (kind === "discard") continue;
    const tiles = arg ? (kind === "chow" ? splitTiles(arg) : [arg]) : [];
    buttons.push(el("button", {class: `act act-${kind}`, onclick: () => act(action)},
      t(kind), " ", tiles.map((x) => tile(x, {cls: "mini"}))));
  }
  box.replaceChildren(...buttons);
}

function renderHints() {
  const box = $("hints");
  const h = state.hints;
  box.hidden = !(hintsBox.checked && h);
  if (box.hidden) return;
  const rows = [el("div", {class: "hint-head"}, h.shanten === 0 ? t("ready") : `${t("shanten")}: ${h.shanten}`)];
  if (h.discards.length) {
    rows.push(el("div", {}, t("bestDiscards")));
    for (const d of h.discards) {
      rows.push(el("div", {class: "hint-row"}, tile(d.tile, {cls: "mini"}), ` → ${d.shanten} · ${d.live} ${t("live")}: `,
        d.useful.map((x) => tile(x, {cls: "mini"}))));
    }
  }
  if (h.waits.length) {
    rows.push(el("div", {}, t("waits")));
    rows.push(el("div", {class: "hint-row"}, h.waits.map((w) => el("span", {class: "count"}, tile(w.tile, {cls: "mini"}), `×${w.live}`))));
  } else if (h.useful.length) {
    rows.push(el("div", {}, t("useful")));
    rows.push(el("div", {class: "hint-row"}, h.useful.map((w) => el("span", {class: "count"}, tile(w.tile, {cls: "mini"}), `×${w.live}`))));
  }
  box.replaceChildren(...rows);
}

// -- the end of a hand and of the session -------------------------------------------------------
function showOverlay(kind, ...children) {
  overlayKind = kind;
  fill($("overlay-body"), children, el("button", {onclick: closeOverlay}, t("close")));
  $("overlay").hidden = false;
}

function closeOverlay() { $("overlay").hidden = true; overlayKind = null; }

function showHandEnd(msg) {
  shownHand = msg.hand_number;
  const r = msg.result;
  const names = r.names;
  const parts = [el("h2", {}, `${t("handEnd")} (${t("hand")} ${msg.hand_number + 1})`),
    ...handResultParts(r, names, r.winning_hand)];
  parts.push(el("p", {}, el("a", {href: `/room/${ROOM}/replay?hand=${msg.hand_number + 1}`, id: "replay-hand"}, t("replayHand"))));
  parts.push(el("p", {class: "muted", id: "next-hand"}, ""));
  showOverlay("hand_end", ...parts);
}

function showSessionEnd(msg) {
  shownSession = true;
  const order = [0, 1, 2, 3].sort((a, b) => msg.scores[b] - msg.scores[a]);
  showOverlay("session_end", el("h2", {}, t("sessionEnd")),
    el("table", {class: "deltas"},
      el("tr", {}, el("th", {}), el("th", {}, t("score")), el("th", {}, t("stdPoints"))),
      order.map((i) => el("tr", {}, el("td", {}, msg.names[i]), el("td", {class: "num"}, msg.scores[i]),
        el("td", {class: "num"}, msg.standard_points[i] ?? "—")))),
    el("p", {class: "links"}, el("a", {href: `/room/${ROOM}/replay`, id: "replay-link"}, t("replayHands")),
      el("a", {href: "/"}, t("lobby"))));
}

setInterval(() => {
  const box = $("countdown");
  if (state && state.must_act && deadlineAt !== null) {
    const left = Math.max(0, (deadlineAt - Date.now()) / 1000);
    box.textContent = `${t("yourTurn")} · ${left.toFixed(0)}s`;
    box.className = "countdown" + (left < 4 ? " urgent" : "");
  } else {
    box.textContent = "";
  }
  const next = document.getElementById("next-hand");
  if (next && nextHandAt !== null) next.textContent = `${t("nextHand")} ${Math.max(0, (nextHandAt - Date.now()) / 1000).toFixed(0)}s`;
}, 250);

setLang(LANG);
connect();
