// The lobby: create a table (a practice table against three bots, or one to share), list the open
// ones to watch (a place is taken with the table's invite link) and the finished ones.
"use strict";

const nameInput = () => document.querySelector("#create input[name=player]");
nameInput().value = localStorage.getItem("guobiao:name") || "";

document.getElementById("lang").addEventListener("click", () => { toggleLang(); listRooms(); listFinished(); });

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
    saveRoomKeys(made.id, {token: made.token, owner_token: made.owner_token,
                           invite: made.invite, watch_token: made.watch_token});
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
  try { rooms = await api("GET", "/api/rooms"); } catch { return; }
  box.replaceChildren();
  if (!rooms.length) { box.append(el("p", {class: "muted"}, t("noTables"))); return; }
  for (const room of rooms) {
    const places = room.places.map((p, i) => el("li", {},
      `${"ABCD"[i]} · `,
      p.kind === "empty" ? t("empty") : `${p.name} (${t(p.kind === "bot" ? "bot" : "human")})`));
    box.append(el("div", {class: "room-row"},
      el("div", {}, el("strong", {}, room.name), " ",
         el("span", {class: "muted"}, room.started ? `${t("started")} · ${t("hand")} ${room.hand + 1}/${room.hands}` : t("waiting")),
         room.practice ? el("span", {class: "muted"}, ` · ${t("practice")}`) : null),
      el("ul", {class: "places"}, places),
      el("div", {class: "links"}, el("a", {href: `/room/${room.id}`, class: "button small secondary"}, t("watch")),
        room.hand > 0 ? el("a", {href: `/room/${room.id}/replay`, class: "button small secondary"}, t("replay")) : null)));
  }
}

async function listFinished() {
  const box = document.getElementById("finished");
  let rooms = [];
  try { rooms = await api("GET", "/api/rooms?finished=true"); } catch { return; }
  box.replaceChildren();
  if (!rooms.length) { box.append(el("p", {class: "muted"}, t("noFinished"))); return; }
  for (const room of rooms) {
    box.append(el("div", {class: "room-row"},
      el("div", {}, el("strong", {}, room.name), " ",
         el("span", {class: "muted"}, room.places.map((p) => p.name).join(" · "))),
      el("a", {href: `/room/${room.id}/replay`, class: "button small secondary replay-link"}, t("replay"))));
  }
}

setLang(LANG);
listRooms();
listFinished();
setInterval(listRooms, 5000);
setInterval(listFinished, 30000);
