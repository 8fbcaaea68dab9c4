// The projector view: the session clock (counting down; a warning 15 minutes before the end, as
// 第六条四 lets the chief referee end the session at the set time), then the seating and the
// standings, a page at a time, rotating. ?rotate=SECONDS (default 15), ?rows=N per page.
"use strict";

const NAME = tournamentName();
const PARAMS = new URLSearchParams(location.search);
const ROTATE = Math.max(3, Number(PARAMS.get("rotate")) || 15) * 1000;
const ROWS = Math.max(4, Number(PARAMS.get("rows")) || 12);
// the standings: at most 16 a page (names 40 px high at 1080p, readable from the back of the
// hall; 12 a page under the full clock were set down to 29 px to fit), the pages of even size
// (26 players: 13 and 13, not 12, 12 and 2)
const STANDING_ROWS = Math.max(4, Number(PARAMS.get("rows")) || 16);
let PAGES = [];
let PAGE = 0;

const showClock = makeCountdown((clock, remaining) => {
  const box = document.getElementById("p-clock");
  document.getElementById("p-time").textContent = clockText(remaining);
  document.getElementById("p-session").textContent =
    clock.session ? `第${clock.session}${term("session", "zh")} ${term("session", "en")} ${clock.session}` : "";
  const warn = remaining <= clock.warning && remaining > 0;
  const over = remaining <= 0;
  box.classList.toggle("warn", warn);
  box.classList.toggle("over", over);
  box.classList.toggle("paused", !clock.running && !over);
  document.getElementById("p-note").textContent = over ? "时间到 — Time is up"
    : [warn ? "最后15分钟 — 15 minutes left" : "", clock.running ? "" : "暂停 — paused"]
      .filter(Boolean).join(" · ");
});

function chunks(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function seatingPages(seating) {
  return chunks(seating.tables, Math.max(1, Math.floor(ROWS / 2))).map((tables, i, all) => ({
    title: `第${seating.session}${term("session", "zh")} 座位 Seating, ${term("session", "en").toLowerCase()} ${seating.session}` + (all.length > 1 ? ` (${i + 1}/${all.length})` : ""),
    node: [el("div", {class: "p-tables"}, tables.map((t) => el("div", {class: "p-table", "data-table": t.table},
      el("div", {class: "p-table-no"}, `${t.table}`),
      el("ol", {class: "p-seats"}, t.seats.map((s) => el("li", {},
        el("span", {class: "wind"}, WIND_LABELS[s.wind]), " ", s.name,
        // a table still in play shows its scores so far with how far it is (5/16)
        s.score !== null && s.score !== undefined ? el("span", {class: "num"}, ` ${s.score}`) : null,
        s.substitute ? " " : null, seatMark(s), s.forfeit ? [" ", forfeitMark(s.plays_for)] : null)),
        t.state === "partial" ? el("li", {class: "in-play"}, `进行中 in play ${partialText(t)}`) : null)))),
    // who sits out: on every page of the seating (第十二条一)
    byesLine(seating.byes)],
  }));
}

// A player with no place says why (退赛 withdrawn, 停赛 disqualified), as the standings page does:
// a bare — read as a ranking error from the back of the hall
function unplaced(r) {
  if (!r.status || r.status === "ranked") return null;
  const why = UNRANKED[r.status] || r.status;
  return why ? el("span", {class: "muted small unranked-why"}, ` (${why})`) : null;
}

function standingPages(title, rows, team) {
  // the columns named: two bare numbers side by side (4 620) did not say which was the
  // standard points (the ranking, 第十一条) and which the match points (its tiebreak)
  const head = el("thead", {}, el("tr", {},
    el("th", {}, both("rank")), el("th", {}, both(team ? "team" : "name")),
    el("th", {class: "num"}, both("standard_points", true)), el("th", {class: "num"}, both("match_points", true))));
  const per = Math.ceil(rows.length / Math.max(1, Math.ceil(rows.length / STANDING_ROWS)));
  return chunks(rows, per).map((part, i, all) => ({
    title: title + (all.length > 1 ? ` (${i + 1}/${all.length})` : ""),
    node: el("table", {class: "p-standings"}, head.cloneNode(true), el("tbody", {}, part.map((r) => el("tr", {"data-row": r.name},
      el("td", {class: "rank"}, r.rank),
      el("td", {class: "name"}, r.name, team ? el("span", {class: "muted small"}, " " + r.members.join(", ")) : (r.team ? el("span", {class: "muted small"}, " " + r.team) : null),
        team ? null : unplaced(r)),
      el("td", {class: "num strong"}, r.standard),
      el("td", {class: "num muted"}, r.match))))),
  }));
}

function show() {
  const panel = document.getElementById("p-panel");
  if (!PAGES.length) { fill(panel, el("p", {class: "muted"}, "…")); return; }
  PAGE %= PAGES.length;
  const page = PAGES[PAGE];
  fill(panel, el("h2", {class: "p-page-title"}, page.title), page.node);
  // a standings page: the clock on one line above it, the rows the room
  document.body.classList.toggle("p-compact", Boolean(panel.querySelector(".p-standings")));
  document.getElementById("p-page").textContent = `${PAGE + 1} / ${PAGES.length}`;
  fit();
}

// Keep the page within the screen: long names wrap (tournament.css); a page still taller than
// the screen (six tables of very long names) is set smaller, step by step, down to 40%.
function fit() {
  const panel = document.getElementById("p-panel");
  const root = document.documentElement;
  let scale = 1;
  panel.style.setProperty("--p-fit", "1");
  while (scale > 0.4 && (root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth)) {
    scale -= 0.05;
    panel.style.setProperty("--p-fit", scale.toFixed(2));
  }
}

async function refresh(version, clock) {
  try {
    const summary = await api("GET", tApi(NAME));
    showClock(clock || summary.clock);
    const standings = await api("GET", tApi(NAME, "standings"));
    const session = summary.clock.session || summary.current;
    const pages = [];
    if (session) pages.push(...seatingPages(await api("GET", tApi(NAME, "seating", session))));
    // before any result no standings pages: every player listed — (or every team 1= with 0)
    // with nothing entered, as the standings page says, is no ranking
    const results = standings.individual.some((r) => r.status === "ranked");
    if (results) pages.push(...standingPages(both("individual_ranking"), standings.individual, false));
    if (results && standings.teams.length) pages.push(...standingPages(both("team_ranking"), standings.teams, true));
    PAGES = pages;
    show();
  } catch (err) {
    fill(document.getElementById("p-panel"), el("p", {class: "error"}, err.message));
  }
}

document.getElementById("t-name").textContent = NAME;
document.title = NAME + " — projector";
setInterval(() => { PAGE += 1; show(); }, ROTATE);
window.addEventListener("resize", fit);
watchTournament(NAME, refresh);
