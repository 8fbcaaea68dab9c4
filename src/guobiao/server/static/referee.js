// Referee score entry: log in (an account the organiser created for this tournament), pick a
// session and a table, enter the four 局分 E S W N. They must sum to 4 × the starting points less
// the deductions: checked here before saving, and again by the server. An entered table is
// corrected (the audit trail names this account). Organisers also run the session clock.
"use strict";

const NAME = tournamentName();
let ME = null;       // {username, role, csrf}
let SUMMARY = null;
let TABLES = [];     // the seating of the chosen session
let DIRTY = false;   // the referee is typing: live updates must not overwrite the form
let CONFIRMING = null;  // a correction shown for confirmation: the values it would send
let CLOCK = null;    // the last clock snapshot (a reset of a clock that has run asks first)
let SAVING = false;  // a save is on its way: a second press (a slow network) sends nothing more
const DRAFTS_KEY = "guobiao:referee-drafts:" + NAME;
const $ = (id) => document.getElementById(id);

async function post(path, body, retried = false) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": ME ? ME.csrf : ""},
      body: JSON.stringify(body),
    });
  } catch (err) {  // no answer: the request may or may not have arrived
    throw serverError({code: "network", message: "network"}, 0);
  }
  const data = await res.json().catch(() => ({}));
  const code = data.detail && data.detail.code;
  if (res.status === 403 && code === "csrf" && !retried && ME) {
    // this phone logged in again elsewhere (another tab): the cookie is newer than this page's
    // token. Ask for the current one and send once more.
    try { ME = await api("GET", tApi(NAME, "me")); } catch (err) { if (err.status === 401) throw err; }
    return post(path, body, true);
  }
  if (!res.ok) {
    const d = data.detail;
    let msg = d && typeof d === "object" && !Array.isArray(d) ? d
      : {code: res.status === 422 ? "bad_request" : undefined, message: String(d || res.status)};
    const p = msg.params || {};
    if (msg.code === "bad_request" && p.seat && p.field) {  // the server's check of one field
      markInvalid(p.field === "deductions" ? "deduction" : "score", p.seat);
      const range = Number.isInteger(p.min) && Number.isInteger(p.max) ? ` (${p.min} … ${p.max})` : "";
      msg = {message: `${WIND_LABELS[p.seat] || p.seat}: ${badNumberText(p.field === "deductions")}${range}`};
    }
    throw serverError(msg, res.status);
  }
  return data;
}

function badNumberText(deduction) {
  return deduction ? `${term("deduction", "zh")}须为整数 a deduction is a whole number (0 or more)`
    : `${term("session_score", "zh")}须为整数 a score is a whole number`;
}

// A field the server refused: marked as the page marks its own typos.
function markInvalid(kind, wind) {
  const input = document.querySelector(`input.${kind}[name="${kind}-${wind}"]`);
  if (input) setInvalid(input, true);
}

function showLoggedIn() {
  $("login-card").hidden = !!ME;
  $("entry-card").hidden = !ME;
  $("clock-card").hidden = !ME || ME.role !== "organiser";
  $("logout").hidden = !ME;
  $("who").textContent = ME ? `${ME.username} (${ME.role === "organiser" ? "组织者 organiser" : "裁判 referee"})` : "";
}

function currentTable() {
  const n = Number($("table").value);
  return TABLES.find((t) => t.table === n) || null;
}

// A whole number as typed (a score may be negative, a deduction not); null when it is not one
// ("1O0", "12a", "5.5"); an empty deduction is 0, an empty score null (not typed yet).
function numberOf(input) {
  const v = plain(input.value);
  const deduction = input.classList.contains("deduction");
  if (!v) return deduction ? 0 : null;
  return (deduction ? /^\d+$/ : /^-?\d+$/).test(v) ? Number(v) : null;
}

// Whether a field holds something that is not a whole number: marked for the eye (red border)
// and for a screen reader (aria-invalid, the message tied by aria-describedby).
function isTypo(input) {
  return input.value.trim() !== "" && numberOf(input) === null;
}

// What a phone's keyboard may type for a number, as ASCII: full-width digits (５５０, a Chinese
// keyboard), a full-width or typographic minus (－, −, –), spaces around it.
function plain(text) {
  return text.trim()
    .replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xFF10 + 48))
    .replace(/^[\uFF0D\u2212\u2012\u2013\u2014\uFE63]/, "-")
    .replace(/^([-+])\s+/, "$1").replace(/^\+/, "");
}

// ± before a score: a phone's number pad (inputmode numeric) has no minus sign on iOS, and a
// session's 局分 can be below zero.
function flipSign(input) {
  const v = plain(input.value);
  input.value = v.startsWith("-") ? v.slice(1) : "-" + (v || "");
  input.dispatchEvent(new Event("input", {bubbles: true}));
  input.focus();
}

function setInvalid(input, bad) {
  input.classList.toggle("invalid", bad);
  if (bad) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "entry-invalid");
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
}

function check(event) {
  if (event) DIRTY = true;
  if (event) { unconfirm(); keepDraft(); }
  const t = currentTable();
  if (!t || !SUMMARY) { $("save").disabled = true; fill($("entry-invalid")); return false; }
  const inputs = [...document.querySelectorAll("input.score, input.deduction")];
  const typos = inputs.filter(isTypo);
  inputs.forEach((i) => setInvalid(i, typos.includes(i)));
  fill($("entry-invalid"), typos.map((i) => el("span", {class: "bad-field", "data-field": i.name},
    `✗ ${WIND_LABELS[i.name.split("-")[1]]} 「${i.value.trim()}」: ${badNumberText(i.classList.contains("deduction"))}`)));
  const scores = [...document.querySelectorAll("input.score")].map(numberOf);
  const deducted = [...document.querySelectorAll("input.deduction")].map(numberOf);
  const expected = 4 * SUMMARY.starting_points - deducted.reduce((a, b) => a + (b || 0), 0);
  const sum = scores.reduce((a, b) => a + (b ?? 0), 0);
  $("sum").textContent = sum;
  $("expected").textContent = expected;
  const complete = scores.every((s) => s !== null);
  let state = "";
  if (t.source === "hands") state = "已按盘录入：请用 guobiao tournament hand 更正 entered hand by hand: correct it with guobiao tournament hand";
  else if (typos.length) state = "✗";
  else if (!complete) state = "";
  else if (sum !== expected) state = `✗ ${sum - expected > 0 ? "+" : ""}${sum - expected}`;
  else state = "✓";
  $("sum-state").textContent = state;
  $("sum-state").className = state.startsWith("✓") ? "ok" : "error";
  const ok = !typos.length && complete && sum === expected && t.source !== "hands";
  $("save").disabled = !ok || SAVING;
  if (ok) fill($("entry-error"));
  $("entry").dataset.valid = ok ? "yes" : "no";
  return ok;
}

// What the referee typed, kept by session and table (in this browser's storage) until it is
// saved: choosing another table, a reload or a phone that dropped the tab loses nothing. A draft
// holds for the table as it was when typing began (its revision): once anyone saved the table,
// what the draft was typed against is gone and it is dropped.
function drafts() {
  try { return JSON.parse(localStorage.getItem(DRAFTS_KEY)) || {}; } catch (err) { return {}; }
}

function draftKey(t) { return `${$("session").value}/${t.table}`; }

function keepDraft() {
  const t = currentTable();
  if (!t) return;
  const all = drafts();
  const values = {};
  document.querySelectorAll("#entry-rows input").forEach((i) => { values[i.name] = i.value; });
  all[draftKey(t)] = {revision: t.revision, values, note: $("note").value};
  try { localStorage.setItem(DRAFTS_KEY, JSON.stringify(all)); } catch (err) { /* full: not kept */ }
}

function dropDraft(t) {
  const all = drafts();
  delete all[draftKey(t)];
  try { localStorage.setItem(DRAFTS_KEY, JSON.stringify(all)); } catch (err) { /* as before */ }
}

// The tables of the session not entered yet, each a button that picks it, and how many are in:
// what the head referee asks at the end of a session.
function showMissing() {
  const open = TABLES.filter((t) => (t.state ? t.state !== "complete" : !t.entered));
  const pick = (t) => el("button", {type: "button", class: "small secondary table-pick", "data-table": t.table,
    onclick: () => { $("table").value = String(t.table); $("table").dispatchEvent(new Event("change")); }},
    `${t.table}${t.state === "partial" ? ` (${partialText(t)})` : ""}`);
  fill($("missing"), !TABLES.length ? null : open.length
    ? [el("span", {}, `未录入 Missing (${open.length}/${TABLES.length}): `), ...open.map(pick)]
    : el("span", {class: "ok"}, `✓ 全部${TABLES.length}桌已录入 All ${TABLES.length} tables entered`));
}

// A correction is sent only after its changes were shown (old → new, each seat): saving over an
// entered table replaces what the sheet said, and a wrong table chosen would be lost unseen.
function unconfirm() {
  CONFIRMING = null;
  fill($("entry-confirm"));
  const t = currentTable();
  $("save").textContent = t && t.entered ? "更正 Correct" : "保存 Save";
}

function entryValues() {
  const scores = {};
  const deductions = {};
  document.querySelectorAll("input.score").forEach((i) => { scores[i.name.slice(6)] = numberOf(i); });
  document.querySelectorAll("input.deduction").forEach((i) => { deductions[i.name.slice(10)] = numberOf(i); });
  return {scores, deductions};
}

// The changes a correction makes, one line a changed number: "南 S Bam3: 局分 480 → 500".
function changes(t, values) {
  const out = [];
  for (const s of t.seats) {
    const score = values.scores[s.wind];
    if (score !== s.score) out.push(`${WIND_LABELS[s.wind]} ${s.name}: ${term("session_score", "zh")} ${s.score ?? "—"} → ${score}`);
    const before = t.deductions[s.wind] || 0;
    const after = values.deductions[s.wind] || 0;
    if (after !== before) out.push(`${WIND_LABELS[s.wind]} ${s.name}: ${term("deduction", "zh")} ${before} → ${after}`);
  }
  return out;
}

function showTable() {
  const t = currentTable();
  DIRTY = false;
  fill($("entry-error"));
  unconfirm();
  if (!t) { fill($("entry-rows")); check(); return; }
  const inPlay = t.state === "partial" ? ` · 进行中 in play: ${t.hands}/16 盘 hands` : "";
  $("table-state").textContent = t.entered
    ? (t.source === "hands" ? "已按盘录入 Entered hand by hand" + inPlay : "已录入 — 更正 Entered: saving corrects it (audit trail)")
    : "未录入 Not entered yet";
  $("save").textContent = t.entered ? "更正 Correct" : "保存 Save";
  fill($("entry-rows"), t.seats.flatMap((s) => [el("tr", {},
    el("th", {class: "wind"}, WIND_LABELS[s.wind]),
    el("td", {class: "name"}, s.name),
    el("td", {class: "score-cell"}, el("button", {type: "button", class: "sign secondary", tabindex: "-1",
      "data-wind": s.wind, "aria-label": `± ${s.wind}`, title: "正负 plus / minus",
      onclick: () => flipSign(document.querySelector(`input[name="score-${s.wind}"]`))}, "±"),
      el("input", {class: "score", name: `score-${s.wind}`, inputmode: "numeric", pattern: "-?[0-9]*",
      autocomplete: "off", value: s.score ?? "", "aria-label": `score ${s.wind}`, oninput: check})),
    el("td", {}, el("input", {class: "deduction", name: `deduction-${s.wind}`, inputmode: "numeric", pattern: "[0-9]*",
      autocomplete: "off", value: t.deductions[s.wind] || "", placeholder: "0", "aria-label": `deduction ${s.wind}`, oninput: check}))),
    // a substitute: 陪打 (plays the seat, not ranked, 第十二条三(二)), on a line of its own
    // and a forfeit (弃权, 局分 0, 第十三条二(一)) of the player the seat is played for, as the
    // standings page marks it
    // (the seating's own flag: recorded with the substitution, so shown before any score)
    s.substitute ? el("tr", {class: "mark-row"}, el("td"), el("td", {colspan: 3}, seatMark(s),
      s.forfeit ? [" ", forfeitMark(s.plays_for)] : null)) : null]));
  const draft = drafts()[draftKey(t)];
  if (draft && draft.revision === t.revision) {  // typed before and not saved: back as it was
    for (const [name, value] of Object.entries(draft.values)) {
      const input = document.querySelector(`#entry-rows input[name="${name}"]`);
      if (input) input.value = value;
    }
    $("note").value = draft.note || "";
    DIRTY = true;
    $("table-state").textContent += " · 未保存的输入 unsaved entry restored";
  } else {
    if (draft) dropDraft(t);
    $("note").value = "";  // a note is about one table: not carried to the next
  }
  check();
}

let LOADS = 0;  // seating requests made: an answer older than the latest one is dropped
let MOVE_ON = false;  // a save asked for the next table: a live update's read that wins keeps that

async function loadSession(keepTable) {
  const session = Number($("session").value);
  const seq = ++LOADS;
  if (!keepTable) MOVE_ON = true;
  if (!session) { TABLES = []; showMissing(); showTable(); return; }
  const data = await api("GET", tApi(NAME, "seating", session));
  // a live update's read that set out before a save may come back after the save's own: the
  // tables it shows are older (a saved table would show as not entered, open for a 2nd entry)
  if (seq !== LOADS || Number($("session").value) !== session) return;
  // on to the next table after a save, unless the referee already picked one and is typing
  keepTable = (keepTable && !MOVE_ON) || DIRTY;
  MOVE_ON = false;
  const shown = JSON.stringify(currentTable());
  TABLES = data.tables;
  const before = $("table").value;
  // ✓ complete; a table entered hand by hand and still in play shows how far it is
  const mark = (t) => (t.state === "partial" ? ` … ${partialText(t)}` : (t.state ? t.state === "complete" : t.entered) ? " ✓" : "");
  fill($("table"), TABLES.map((t) => el("option", {value: t.table}, `${t.table}${mark(t)}`)));
  showMissing();
  if (keepTable && TABLES.some((t) => String(t.table) === before)) {
    $("table").value = before;
    if (DIRTY) { check(); return; }  // keep what the referee is typing
    // another table's news: the form shown is not drawn again (a referee who just tapped a score
    // keeps the field, its keyboard and what the first key types)
    if (JSON.stringify(currentTable()) === shown) { check(); return; }
  } else {
    // on to the next table not yet entered; with none left, stay on the table just saved (the
    // first one would look like the table the referee was entering)
    const open = TABLES.find((t) => !t.entered);
    if (open) $("table").value = String(open.table);
    else if (TABLES.some((t) => String(t.table) === before)) $("table").value = before;
  }
  showTable();
}

async function loadSummary(keepTable = true) {
  SUMMARY = await api("GET", tApi(NAME));
  const before = $("session").value;
  fill($("session"), SUMMARY.seated.map((n) => el("option", {value: n}, `${n}`)));
  $("session").value = before && SUMMARY.seated.includes(Number(before)) ? before : String(SUMMARY.current ?? "");
  if (!$("clock-session").value && SUMMARY.current) $("clock-session").value = SUMMARY.current;
  showClock(SUMMARY.clock);
  await loadSession(keepTable);
}

$("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  fill($("login-error"));
  const form = new FormData(e.target);
  try {
    ME = await post(tApi(NAME, "login"), {username: form.get("username"), password: form.get("password")});
    e.target.reset();
    showLoggedIn();
    await loadSummary();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
});

$("logout").addEventListener("click", async () => {
  try { await post(tApi(NAME, "logout"), {}); } catch (err) { /* the session may be over already */ }
  ME = null;
  showLoggedIn();
});

$("entry").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (SAVING) return;  // the first press is still on its way: one save, one answer
  fill($("entry-error"));
  fill($("entry-ok"));
  if (!check()) {
    const typo = document.querySelector("#entry input[aria-invalid=true]");
    if (typo) {  // nothing is sent while a field is not a number
      $("entry-error").textContent = "请先改正标红的数字 Correct the numbers marked in red first.";
      typo.focus();
    } else {
      $("entry-error").textContent = `${term("session_score", "zh")}合计须为 ${$("expected").textContent} The scores must sum to ${$("expected").textContent}.`;
    }
    return;
  }
  const t = currentTable();
  const {scores, deductions} = entryValues();
  if (t.entered) {
    const key = JSON.stringify([t.table, t.revision, scores, deductions]);
    if (CONFIRMING !== key) {  // first press: show what changes, then ask again
      const changed = changes(t, {scores, deductions});
      if (!changed.length) {
        $("entry-error").textContent = "无改动 Nothing changed: the table already has these scores.";
        return;
      }
      confirmCorrection(t, changed, key);
      return;
    }
  }
  const session = Number($("session").value);
  SAVING = true;
  $("save").disabled = true;
  const label = $("save").textContent;
  $("save").textContent = "保存中… Saving…";
  try {
    await post(tApi(NAME, "results"), {
      session, table: t.table, scores, deductions,
      note: $("note").value || null, correct: t.entered, seen: t.revision,
    });
    SAVING = false;
    saved(t, t.entered ? "已更正 corrected" : "已保存 saved");
    await loadSummary(false);  // on to the next table not yet entered
  } catch (err) {
    SAVING = false;
    $("save").textContent = label;
    // as checked before the press (check() again would clear the field the server marked)
    $("save").disabled = $("entry").dataset.valid !== "yes";
    await refused(err, t, session, {scores, deductions});
  }
});

// A save went through (or was found on the server): the draft goes, the form is clean.
function saved(t, what) {
  dropDraft(t);
  DIRTY = false;
  $("entry-ok").textContent = `✓ ${what}: 第${t.table}${term("table", "zh")} table ${t.table}`;
  $("note").value = "";
  unconfirm();
}

function confirmCorrection(t, changed, key, heading) {
  CONFIRMING = key;
  fill($("entry-confirm"), heading || null,
    el("strong", {}, `更正第${t.table}${term("table", "zh")} Correct table ${t.table}:`),
    el("ul", {}, changed.map((line) => el("li", {}, line))),
    "再按一次确认 Press again to confirm; change a number to cancel.");
  $("save").textContent = "确认更正 Confirm correction";
}

// What a refused or unanswered save tells the referee; what they typed always stays.
async function refused(err, t, session, values) {
  if (err.status === 401) {  // the login ended (expired, logged out elsewhere, password reset)
    ME = null;
    showLoggedIn();
    $("login-error").textContent = "登录已失效，请重新登录；输入的分数已保留，登录后再按保存 " +
      "Your login has ended: log in again. What you typed is kept: press Save again after logging in.";
    $("entry-error").textContent = "未保存 Not saved: log in again, then press Save.";
    return;
  }
  if (err.status === 0 || err.code === "changed") {
    // no answer (the save may have arrived before the connection dropped), or the table moved
    // on (another referee, or that save): look at the table as the server has it now, keeping
    // what was typed, and say what happened
    let now = null;
    try {
      const data = await api("GET", tApi(NAME, "seating", session));
      if (Number($("session").value) === session) {
        TABLES = data.tables;
        const before = $("table").value;
        const mark = (x) => (x.state === "partial" ? ` … ${partialText(x)}` : (x.state ? x.state === "complete" : x.entered) ? " ✓" : "");
        fill($("table"), TABLES.map((x) => el("option", {value: x.table}, `${x.table}${mark(x)}`)));
        $("table").value = before;
        showMissing();
      }
      now = data.tables.find((x) => x.table === t.table) || null;
    } catch (again) {
      if (err.status === 0) {
        $("entry-error").textContent = "网络中断，未能确认是否已保存；输入已保留，连上后再按保存 " +
          "No connection: not known to be saved. What you typed is kept: press Save again when back online.";
        return;
      }
    }
    if (now && now.entered && !changes(now, values).length) {  // the server has exactly this
      saved(now, "已保存 saved");
      await loadSummary(false);
      return;
    }
    if (err.status === 0) {
      $("entry-error").textContent = "网络中断，未保存；输入已保留，请再按保存 " +
        "The connection failed: not saved. What you typed is kept: press Save again.";
      return;
    }
    if (now && now.entered && Number($("session").value) === session && Number($("table").value) === t.table) {
      DIRTY = true;
      keepDraftAs(now);
      $("table-state").textContent = "已录入 — 更正 Entered: saving corrects it (audit trail)";
      const key = JSON.stringify([now.table, now.revision, values.scores, values.deductions]);
      confirmCorrection(now, changes(now, values), key,
        el("p", {class: "error conflict"}, `第${t.table}${term("table", "zh")}已被他人${t.entered ? "更正" : "录入"}（下列“→”左边是服务器上现在的分数）；` +
          `你的输入未保存，已保留 Table ${t.table} was ${t.entered ? "corrected" : "entered"} meanwhile by someone else ` +
          "(left of each → is what the server has now). Yours was not saved and is kept:"));
      return;
    }
    if (err.code === "changed") {  // not entered, but changed (a lateness recorded at the desk)
      check();
      $("entry-error").textContent = `第${t.table}${term("table", "zh")}刚被更改（如记分台登记了迟到扣分）：请核对后再按保存 ` +
        `Table ${t.table} changed meanwhile (a deduction or a seat recorded at the desk): check it and press Save again.`;
      return;
    }
  }
  $("entry-error").textContent = err.message;
}

// The draft of a table that moved on under the referee: now typed against its new revision.
function keepDraftAs(now) {
  const t = currentTable();
  if (t && t.table === now.table) keepDraft();
}

const showClock = makeCountdown((clock, remaining) => {
  CLOCK = {clock, remaining};
  $("clock-time").textContent = clockText(remaining);
  $("clock-state").textContent = remaining <= 0 ? "时间到 time is up" : clock.running ? "" : "暂停 paused";
  $("clock-time").classList.toggle("warn", remaining <= clock.warning);
});

let RESET_ASKED = null;  // when a reset of a clock that has run was asked to be confirmed

async function clockAction(action) {
  fill($("clock-error"));
  // a reset throws away the time counted: once the clock has run, the second press within
  // 10 s resets it, the first says what would be lost
  const ran = CLOCK && (CLOCK.clock.running || CLOCK.remaining < CLOCK.clock.duration - 1);
  if (action === "reset" && ran && (RESET_ASKED === null || performance.now() - RESET_ASKED > 10000)) {
    RESET_ASKED = performance.now();
    fill($("clock-confirm"), `重置将丢弃剩余时间 ${clockText(CLOCK.remaining)}${CLOCK.clock.running ? "（正在计时）" : ""}：再按一次确认 ` +
      `Reset throws away the ${clockText(CLOCK.remaining)} left${CLOCK.clock.running ? " (running)" : ""}: press Reset again to confirm.`);
    $("clock-reset").textContent = "确认重置 Confirm reset";
    const asked = RESET_ASKED;
    setTimeout(() => {  // not confirmed in time: as before
      if (RESET_ASKED !== asked) return;
      fill($("clock-confirm"));
      $("clock-reset").textContent = "重置 Reset";
    }, 10000);
    return;
  }
  RESET_ASKED = null;
  fill($("clock-confirm"));
  $("clock-reset").textContent = "重置 Reset";
  const body = {action};
  const session = Number($("clock-session").value);
  if (session) body.session = session;
  if (action === "reset") body.minutes = Number($("clock-minutes").value) || 180;
  try {
    showClock(await post(tApi(NAME, "clock"), body));
  } catch (err) {
    $("clock-error").textContent = err.message;
  }
}

$("clock-start").addEventListener("click", () => clockAction("start"));
$("clock-pause").addEventListener("click", () => clockAction("pause"));
$("clock-reset").addEventListener("click", () => clockAction("reset"));
// another table or session: the last save's confirmation is about a table no longer shown
$("session").addEventListener("change", () => { fill($("entry-ok")); loadSession(false); });
$("table").addEventListener("change", () => { fill($("entry-ok")); showTable(); });
$("note").addEventListener("input", () => { DIRTY = true; keepDraft(); });

(async () => {
  $("t-name").textContent = NAME;
  document.title = NAME + " — referee";
  try {
    ME = await api("GET", tApi(NAME, "me"));
  } catch (err) {
    ME = null;
  }
  showLoggedIn();
  try { await loadSummary(); } catch (err) { $("entry-error").textContent = err.message; }
  watchTournament(NAME, async (v, clock) => {
    if (clock) showClock(clock);
    // another referee's entry: refresh the tables (their ✓) unless this form is being filled
    if (ME && !DIRTY && !$("note").value) {
      try { await loadSummary(true); } catch (err) { /* shown on the next save */ }
    }
  });
})();
