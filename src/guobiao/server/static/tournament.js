// The public standings page: individual and team standings, each session's seating with links
// to the score sheets; refreshed whenever a result is entered (watchTournament).
"use strict";

const NAME = tournamentName();
let SUMMARY = null;
let SESSION = null;
let SESSIONS = {};  // each player's sessions: {player: {session: {score, standard, forfeit, bye}}}

// The standings' ``by_session`` of every player, in session order (their ``sessions`` is the
// ranking's list, highest first, 第十一条三), with a forfeit (弃权) and a bye (轮空) marked.
function sessionsByPlayer(rows) {
  return Object.fromEntries(rows.map((r) => [r.name, r.by_session || {}]));
}

// A session a withdrawn or disqualified player no longer plays: from the session of the recorded
// withdrawal (the standings' ``left_from``) on (第十二条二, 第十三条四); a bye or an absence
// before it is no withdrawal.
function leftIn(row, session) {
  return Boolean(LEFT_LABELS[row.status] && row.left_from && session >= row.left_from);
}

function sessionCell(row, session) {
  const found = SESSIONS[row.name]?.[session];
  if (leftIn(row, session)) {
    // the English word (withdrawn) is left out on a tablet: the name says it, the mark keeps
    // the session's column narrow (six of them ran the table past its card at 700 px)
    const [zh, ...en] = LEFT_LABELS[row.status].split(" ");
    return el("td", {class: "num wide-only", "data-session": session, title: LEFT_LABELS[row.status]},
      el("span", {class: "muted left-mark", "data-mark": row.status}, zh,
        el("span", {class: "mark-en"}, " " + en.join(" "))));
  }
  return el("td", {class: "num wide-only", "data-session": session},
    found?.standard ?? "", found?.forfeit ? [" ", forfeitMark()] : null,
    found?.bye ? [found.standard ? " " : null, byeMark()] : null);
}

// 轮空 bye in a session's cell: sat out by the draw (第十二条一), not absent; after the points
// when the tournament scores a bye (the bye_points reading "average")
function byeMark() {
  return el("span", {class: "muted bye-mark", "data-mark": "bye",
    title: "轮空：本局抽签不上桌 bye: sat out this session by the draw (第十二条一)"},
  `${term("bye", "zh")} bye`);
}

// why no place, with the session a player left from (the recorded withdrawal)
function unrankedWhy(r) {
  const why = UNRANKED[r.status] || r.status;
  return r.left_from ? `${why}, 第${r.left_from}${term("session", "zh")}起 from session ${r.left_from}` : why;
}

function standingsRows(rows) {
  const head = el("tr", {},
    el("th", {}, heading("rank")),
    el("th", {}, heading("name")),
    el("th", {class: "team-col"}, heading("team")),
    el("th", {class: "num"}, heading("standard_points", true)),
    el("th", {class: "num"}, heading("match_points", true)),
    ...(SUMMARY ? Array.from({length: SUMMARY.sessions}, (_, i) => el("th", {class: "num wide-only"},
      `第${i + 1}${term("session", "zh")}`, el("br"), el("span", {class: "en"}, `${GLOSSARY_DATA.terms.session.short}${i + 1}`))) : []));
  const body = rows.map((r) => el("tr", {"data-player": r.name, class: r.status && r.status !== "ranked" ? "unranked" : ""},
    el("td", {class: "rank", title: r.partial ? "部分成绩，未完成 partial results, not final" : null}, r.rank + (r.partial ? "*" : "")),
    // a phone: the team under the name (tournament.css, data-team), its column left out (the
    // standard and match points were cut off at the card's edge, 300 px of table in 277)
    el("td", {class: "name", "data-team": r.team || null}, r.name, r.status && r.status !== "ranked"
      ? el("span", {class: "muted unranked-why"}, " (" + unrankedWhy(r) + ")") : null),
    el("td", {class: "muted team-col"}, r.team || "—"),
    el("td", {class: "num strong"}, r.standard),
    el("td", {class: "num"}, r.match),
    ...(SUMMARY ? Array.from({length: SUMMARY.sessions}, (_, i) => sessionCell(r, i + 1)) : [])));
  return [el("thead", {}, head), el("tbody", {}, body)];
}

function teamRows(rows) {
  const head = el("tr", {}, el("th", {}, both("rank")), el("th", {}, both("team")),
    el("th", {class: "team-col"}, both("members")), el("th", {class: "num"}, both("standard_points", true)), el("th", {class: "num"}, both("match_points", true)));
  // a phone: the members under the team's name (in a column of their own a long name broke
  // anywhere, Konstantin / opoulou, and the points were cut off at the card's edge)
  const body = rows.map((r) => el("tr", {"data-team": r.name},
    el("td", {class: "rank", title: r.partial ? "部分成绩，未完成 partial results, not final" : null}, r.rank + (r.partial ? "*" : "")),
    el("td", {class: "name", "data-team": r.members.join(", ")}, r.name),
    el("td", {class: "muted members team-col"}, r.members.join(", ")),
    el("td", {class: "num strong"}, r.standard), el("td", {class: "num"}, r.match)));
  return [el("thead", {}, head), el("tbody", {}, body)];
}

function tableCard(session, t) {
  // complete: green; a table still in play (hands of part of the session) says how far it is
  const complete = t.state ? t.state === "complete" : t.entered;
  return el("div", {class: "t-card" + (complete ? " entered" : ""), "data-table": t.table, "data-state": t.state || null},
    el("div", {class: "t-card-head"},
      el("strong", {}, `第${t.table}${term("table", "zh")} ${term("table", "en")} ${t.table}`),
      el("a", {href: tUrl(NAME, "sheet", session, t.table)}, both("score_sheet"))),
    t.state === "partial" ? el("span", {class: "in-play", title: "部分成绩，未完成 partial results, not final"},
      `进行中 in play: ${partialText(t)} 盘 hands`) : null,
    el("table", {class: "seats"}, el("tbody", {}, t.seats.map((s) => el("tr", {},
      el("td", {class: "wind"}, WIND_LABELS[s.wind]),
      el("td", {class: "name"}, s.name, s.substitute ? " " : null, seatMark(s),
        s.forfeit ? [" ", forfeitMark(s.plays_for)] : null),
      el("td", {class: "num"}, s.score ?? "")))))
  );
}

async function loadSeating() {
  const box = document.getElementById("tables");
  if (!SESSION) { fill(box, el("p", {class: "muted"}, "还没有排座位 No session seated yet.")); return; }
  const data = await api("GET", tApi(NAME, "seating", SESSION));
  fill(box, data.tables.map((t) => tableCard(SESSION, t)));
  fill(document.getElementById("byes"), byesLine(data.byes));
}

async function refresh() {
  try {
    SUMMARY = await api("GET", tApi(NAME));
    const standings = await api("GET", tApi(NAME, "standings"));
    SESSIONS = sessionsByPlayer(standings.individual);
    const select = document.getElementById("session-select");
    if (select.options.length !== SUMMARY.seated.length) {
      fill(select, SUMMARY.seated.map((n) => el("option", {value: n}, `第${n}${term("session", "zh")} ${term("session", "en")} ${n}`)));
    }
    if (SESSION === null) SESSION = SUMMARY.current;
    if (SESSION !== null) select.value = String(SESSION);
    const ind = document.getElementById("individual");
    // before any result, no roster of players who "did not play", nor every team 1= with 0:
    // the note alone
    const results = standings.individual.some((r) => r.status === "ranked");
    const noResults = () => [el("tbody", {}, el("tr", {}, el("td", {class: "muted"}, "还没有成绩 No results yet.")))];
    fill(ind, results ? standingsRows(standings.individual) : noResults());
    const teams = document.getElementById("teams");
    teams.hidden = !standings.teams.length;
    document.getElementById("nav-teams").hidden = teams.hidden;
    fill(document.getElementById("team-table"), results ? teamRows(standings.teams) : noResults());
    // the asterisk's meaning on screen too (its title is no help on a phone)
    const [individualNote, teamNote] = document.querySelectorAll(".partial-note");
    individualNote.hidden = !standings.individual.some((r) => r.partial);
    teamNote.hidden = !standings.teams.some((r) => r.partial);
    await loadSeating();
    const done = SUMMARY.complete.length;
    fill(document.getElementById("t-status"),
      `${done} / ${SUMMARY.sessions} ${term("session", "zh")}已完成 sessions complete · 更新于 updated ${new Date().toLocaleTimeString()}`);
    fill(document.getElementById("t-error"));
  } catch (err) {
    fill(document.getElementById("t-error"), err.message);
  }
}

document.getElementById("t-name").textContent = NAME;
document.title = NAME + " — standings";
document.getElementById("nav-results").href = tUrl(NAME, "results");
document.getElementById("nav-projector").href = tUrl(NAME, "projector");
document.getElementById("nav-referee").href = tUrl(NAME, "referee");
document.getElementById("session-select").addEventListener("change", (e) => {
  SESSION = Number(e.target.value);
  loadSeating();
});
watchTournament(NAME, refresh);
