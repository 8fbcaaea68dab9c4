// What the tournament pages share: their URLs, the live feed (long poll), small formatters.
"use strict";

BILINGUAL = true;  // these pages speak 中文 and English at once: so do their error messages

// A glossary term in both languages ("标准分 Std" with short), as the printed papers print it.
function both(key, short = false) {
  const found = GLOSSARY_DATA.terms[key];
  return found ? `${found.zh} ${short && found.short ? found.short : found.en}` : key;
}

// The same as a table heading's children: 中文, a line break, the English.
function heading(key, short = false) {
  const found = GLOSSARY_DATA.terms[key] || {zh: key, en: ""};
  return [found.zh, el("br"), el("span", {class: "en"}, short && found.short ? found.short : found.en)];
}

function tournamentName() {
  // /t/{name}[/projector|/referee]
  const parts = location.pathname.split("/");
  return decodeURIComponent(parts[2] || "");
}

function tUrl(name, ...rest) {
  return "/t/" + encodeURIComponent(name) + (rest.length ? "/" + rest.join("/") : "");
}

function tApi(name, ...rest) {
  return "/api/t/" + encodeURIComponent(name) + (rest.length ? "/" + rest.join("/") : "");
}

// Call onChange(version, clock) whenever the tournament data or its clock changes: a long poll
// of /api/t/{name}/changes (answered at once on a change, else after `wait` seconds). A version
// that differs from the last one seen is a change, lower too (the server was restarted).
function watchTournament(name, onChange, version = 0) {
  let since = version;
  let stopped = false;
  async function loop() {
    while (!stopped) {
      try {
        const res = await fetch(tApi(name, "changes") + `?since=${since}&wait=25`);
        if (!res.ok) throw new Error(String(res.status));
        const data = await res.json();
        // any other version is news: one below `since` is a restarted server's count
        if (data.version !== since) {
          since = data.version;
          await onChange(data.version, data.clock);
        }
        setLive(true);
      } catch (err) {
        setLive(false);
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  }
  loop();
  return () => { stopped = true; };
}

function setLive(ok) {
  const dot = document.getElementById("live");
  if (!dot) return;
  dot.classList.toggle("off", !ok);
  dot.title = ok ? "实时 live" : "重新连接… reconnecting…";
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(2, "0");
  const ss = String(sec).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

// A countdown from a clock snapshot ({remaining, running}); ticks locally between snapshots.
function makeCountdown(render) {
  let snap = null;
  let at = 0;
  function remaining() {
    if (!snap) return null;
    return snap.running ? snap.remaining - (performance.now() - at) / 1000 : snap.remaining;
  }
  setInterval(() => { if (snap) render(snap, remaining()); }, 250);
  return (clock) => { snap = clock; at = performance.now(); render(snap, remaining()); };
}

const WIND_LABELS = Object.fromEntries(GLOSSARY_DATA.winds.map((w) => [GLOSSARY_DATA.terms[w].short, both(w, true)]));

// 轮空 Bye: the players who sit out the session (第十二条一), at no table: listed below the tables,
// or they would look for their name. null with none.
function byesLine(byes, attrs = {}) {
  if (!byes || !byes.length) return null;
  return el("p", {class: "byes", "data-byes": byes.length, ...attrs},
    el("strong", {}, `${term("bye", "zh")} Bye`), ": ",
    byes.flatMap((b, i) => [i ? ", " : "", el("span", {class: "bye", "data-player": b.name}, b.name)]));
}

// A table still in play (hands of part of the session): "5/16".
function partialText(t) {
  return t.state === "partial" ? `${t.hands}/16` : "";
}

// The mark after a substitute's name wherever a table's seats are listed: 陪打 plays the seat and
// takes no place and no standard points (第十二条三(二)); a team's 替补 whose points count for the
// team (the team_substitute reading); and whom they play for. null for a player.
function seatMark(s) {
  if (!s.substitute) return null;
  const what = s.stand_in ? `${term("stand_in", "zh")} substitute` : `${term("substitute", "zh")} team sub`;
  return el("span", {class: "stand-in", "data-mark": s.stand_in ? "stand-in" : "substitute",
    title: s.stand_in ? "陪打：不计名次和标准分 plays the seat, not ranked" : null},
    what + (s.plays_for ? ` · ${term("plays_for", "zh")} ${s.plays_for}` : ""));
}

const FORFEIT_TITLE = "弃权：超过15分钟不到场，局分为0 forfeit: more than 15 minutes late, 局分 0 (第十三条二(一))";

// 弃权 forfeit, after a session's points (standings) or the seat played for them (a card, the
// referee's table)
function forfeitMark(player) {
  return el("span", {class: "forfeit", "data-mark": "forfeit", title: FORFEIT_TITLE},
    `${player ? player + " " : ""}${term("forfeit", "zh")} forfeit`);
}

// The sessions after a player left the tournament: what the standings show in their place.
const LEFT_LABELS = {withdrawn: "退赛 withdrawn", disqualified: "停赛 disqualified"};

// why a registered player has no place (the standings' ``status``; 第十二条三(二), 第十三条四), on the
// standings page and the projector
const UNRANKED = {
  "withdrawn": LEFT_LABELS.withdrawn,
  "disqualified": LEFT_LABELS.disqualified,
  "substitute": "陪打 substitute only",
  "disqualified in session": "取消本局成绩 disqualified in session",
  "byes only": `${term("bye", "zh")} byes only`,
  "did not play": "未参赛 did not play",
};
