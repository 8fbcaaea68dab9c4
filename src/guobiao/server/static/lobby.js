// The lobby: my tables (the rooms this browser holds a link for), create a table (a practice
// table against three bots, or one to share), the open ones to watch (a place is taken with the
// table's invite link) and the finished ones.
"use strict";

// The lobby's own strings (the shared ones are in common.js).
Object.assign(STRINGS.en, {
  help: "Help",
  myTables: "My tables",
  rejoin: "Rejoin",
  open: "Open",
  forget: "Forget",
  forgetTitle: "Forget this table: this browser drops its links",
  stateWaiting: "waiting · {n}/4 seated",
  statePlaying: "playing · hand {n}/{total}",
  stateFinished: "finished",
  stateClosed: "closed (abandoned)",
  yourPlace: "your place",
  watching: "watching",
  seated: "seated",
  moreTables: "…and {n} more open tables, not listed",
});
Object.assign(STRINGS.zh, {
  help: "帮助",
  myTables: "我的牌桌",
  rejoin: "回到牌桌",
  open: "打开",
  forget: "移除",
  forgetTitle: "移除此桌：本浏览器不再保存它的链接",
  stateWaiting: "等待中 · 已入座 {n}/4",
  statePlaying: "对局中 · 第 {n}/{total} 盘",
  stateFinished: "已结束",
  stateClosed: "已关闭（无人在线）",
  yourPlace: "你的座位",
  watching: "观战",
  seated: "已入座",
  moreTables: "……另有 {n} 桌未列出",
});

// t(key) with {name} filled in from params.
function lobbyText(key, params) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}

const nameInput = () => document.querySelector("#create input[name=player]");
nameInput().value = localStorage.getItem("guobiao:name") || "";

document.getElementById("lang").addEventListener("click", () => { toggleLang(); listRooms(); listFinished(); showMine(); });

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const mode = ev.submitter ? ev.submitter.value : "quick";
  const player = form.player.value.trim();
  localStorage.setItem("guobiao:name", player);
  const err = document.getElementById("create-error");
  err.textContent = "";
  try {
    const made = await api("POST", "/api/rooms", {
      name: form.name.value.trim(), private: form.private.checked,
      bot_kind: form.bot_kind.value, player, practice: mode === "quick",
    });
    saveRoomKeys(made.id, {token: made.token, owner_token: made.owner_token, invite: made.invite,
                           watch_token: made.watch_token, place: made.place, at: Date.now()});
    if (mode === "quick") {
      await api("POST", `/api/rooms/${made.id}/start`, {owner_token: made.owner_token, fill: true});
    }
    location.href = `/room/${made.id}`;
  } catch (e) {
    err.textContent = e.message;
  }
});

async function listRooms() {
  const box = document.getElementById("rooms");
  let rooms = [];
  let more = 0;  // the server lists a page of open tables (those waiting for players first)
  try {
    const res = await fetch("/api/rooms");
    if (!res.ok) return;
    rooms = await res.json();
    more = Number(res.headers.get("X-More-Rooms")) || 0;
  } catch { return; }
  box.replaceChildren();
  if (!rooms.length) { box.append(el("p", {class: "muted"}, t("noTables"))); return; }
  for (const room of rooms) {
    const places = room.places.map((p, i) => el("li", {},
      `${"ABCD"[i]} · `,
      p.kind === "empty" ? t("empty") : `${localName(p.name)} (${t(p.kind === "bot" ? "bot" : "human")})`));
    box.append(el("div", {class: "room-row"},
      el("div", {}, el("strong", {}, localName(room.name)), " ",
         el("span", {class: "muted"}, room.started ? `${t("started")} · ${t("hand")} ${room.hand + 1}/${room.hands}` : t("waiting")),
         room.practice ? el("span", {class: "muted"}, ` · ${t("practice")}`) : null),
      el("ul", {class: "places"}, places),
      el("div", {class: "links"}, el("a", {href: `/room/${room.id}`, class: "button small secondary"}, t("watch")),
        room.hand > 0 ? el("a", {href: `/room/${room.id}/replay`, class: "button small secondary"}, t("replay")) : null)));
  }
  if (more) box.append(el("p", {class: "muted more-rooms", "data-more": more}, lobbyText("moreTables", {n: more})));
}

async function listFinished() {
  const box = document.getElementById("finished");
  let rooms = [];
  try { rooms = await api("GET", "/api/rooms?finished=true"); } catch { return; }
  box.replaceChildren();
  if (!rooms.length) { box.append(el("p", {class: "muted"}, t("noFinished"))); return; }
  for (const room of rooms) {
    box.append(el("div", {class: "room-row"},
      el("div", {}, el("strong", {}, localName(room.name)), " ",
         el("span", {class: "muted"}, room.places.map((p) => localName(p.name)).join(" · "))),
      el("a", {href: `/room/${room.id}/replay`, class: "button small secondary replay-link"}, t("replay"))));
  }
}

// -- my tables: the rooms this browser holds a link for (common.js roomKeys), newest first ------
const ROOM_PREFIX = "guobiao:room:";
const MAX_MINE = 20;  // shown; older ones stay stored until forgotten
let mine = [];        // [{id, keys, room}] as last fetched

function storedRooms() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(ROOM_PREFIX)) continue;
    const id = key.slice(ROOM_PREFIX.length);
    const keys = roomKeys(id);
    if (/^[\w-]{1,64}$/.test(id) && (keys.token || keys.owner_token || keys.invite || keys.watch_token)) {
      out.push({id, keys});
    }
  }
  return out.sort((a, b) => (b.keys.at || 0) - (a.keys.at || 0)).slice(0, MAX_MINE);
}

function forget(id) {
  localStorage.removeItem(ROOM_PREFIX + id);
  mine = mine.filter((m) => m.id !== id);
  showMine();
}

async function listMine() {
  const found = await Promise.all(storedRooms().map(async ({id, keys}) => {
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(id)}`);
      if (res.status === 404) { localStorage.removeItem(ROOM_PREFIX + id); return null; }  // gone
      return res.ok ? {id, keys, room: await res.json()} : null;
    } catch { return null; }  // offline: keep it, try again later
  }));
  mine = found.filter((m) => m && localStorage.getItem(ROOM_PREFIX + m.id) !== null);  // not forgotten meanwhile
  showMine();
}

function mineState(room) {
  if (room.ended) return t("stateFinished");
  if (room.closed) return t("stateClosed");
  if (room.started) return lobbyText("statePlaying", {n: room.hand + 1, total: room.hands});
  return lobbyText("stateWaiting", {n: room.places.filter((p) => p.kind !== "empty").length});
}

function minePlace(room, keys) {
  const p = keys.place;
  if (Number.isInteger(p) && p >= 0 && p < 4 && room.places[p].kind === "human") {
    return `${t("yourPlace")}: ${"ABCD"[p]} · ${room.places[p].name}`;
  }
  return keys.token ? t("seated") : t("watching");
}

function showMine() {
  const card = document.getElementById("mine-card");
  card.hidden = !mine.length;
  fill(document.getElementById("mine"), mine.map(({id, keys, room}) => {
    const over = room.ended || room.closed;
    const links = [];
    if (!over) {
      links.push(el("a", {href: `/room/${id}`, class: "button small rejoin"}, t(keys.token ? "rejoin" : "open")));
    } else if (room.ended || room.hand > 0) {
      links.push(el("a", {href: `/room/${id}/replay`, class: "button small replay-link"}, t("replay")));
    }
    links.push(el("button", {class: "small secondary forget", title: t("forgetTitle"), onclick: () => forget(id)}, t("forget")));
    return el("div", {class: "room-row mine-row", "data-room": id},
      el("div", {}, el("strong", {}, localName(room.name)), " ", el("span", {class: "muted mine-state"}, mineState(room))),
      el("div", {class: "mine-place"}, minePlace(room, keys)),
      el("div", {class: "links"}, links));
  }));
}

setLang(LANG);
listMine();
listRooms();
listFinished();
setInterval(listMine, 10000);
setInterval(listRooms, 5000);
setInterval(listFinished, 30000);
