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
const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": ME ? ME.csrf : ""},
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
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
  const v = input.value.trim();
  const deduction = input.classList.contains("deduction");
  if (!v) return deduction ? 0 : null;
  return (deduction ? /^\d+$/ : /^-?\d+$/).test(v) ? Number(v) : null;
}

// Whether a field holds something that is not a whole number: marked for the eye (red border)
// and for a screen reader (aria-invalid, the message tied by aria-describedby).
function isTypo(input) {
  return input.value.trim() !== "" && numberOf(input) === null;
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
  if (event) unconfirm();
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
  $("save").disabled = !ok;
  if (ok) fill($("entry-error"));
  $("entry").dataset.valid = ok ? "yes" : "no";
  return ok;
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
    el("td", {}, el("input", {class: "score", name: `score-${s.wind}`, inputmode: "numeric", pattern: "-?[0-9]*",
      autocomplete: "off", value: s.score ?? "", "aria-label": `score ${s.wind}`, oninput: check})),
    el("td", {}, el("input", {class: "deduction", name: `deduction-${s.wind}`, inputmode: "numeric", pattern: "[0-9]*",
      autocomplete: "off", value: t.deductions[s.wind] || "", placeholder: "0", "aria-label": `deduction ${s.wind}`, oninput: check}))),
    // a substitute: 陪打 (plays the seat, not ranked, 第十二条三(二)), on a line of its own
    // and a forfeit (弃权, 局分 0, 第十三条二(一)) of the player the seat is played for, as the
    // standings page marks it
    // (the seating's own flag: recorded with the substitution, so shown before any score)
    s.substitute ? el("tr", {class: "mark-row"}, el("td"), el("td", {colspan: 3}, seatMark(s),
      s.forfeit ? [" ", forfeitMark(s.plays_for)] : null)) : null]));
  check();
}

async function loadSession(keepTable) {
  const session = Number($("session").value);
  if (!session) { TABLES = []; showTable(); return; }
  const data = await api("GET", tApi(NAME, "seating", session));
  TABLES = data.tables;
  const before = $("table").value;
  // ✓ complete; a table entered hand by hand and still in play shows how far it is
  const mark = (t) => (t.state === "partial" ? ` … ${partialText(t)}` : (t.state ? t.state === "complete" : t.entered) ? " ✓" : "");
  fill($("table"), TABLES.map((t) => el("option", {value: t.table}, `${t.table}${mark(t)}`)));
  if (keepTable && TABLES.some((t) => String(t.table) === before)) {
    $("table").value = before;
    if (DIRTY) { check(); return; }  // keep what the referee is typing
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
    const key = JSON.stringify([t.table, scores, deductions]);
    if (CONFIRMING !== key) {  // first press: show what changes, then ask again
      const changed = changes(t, {scores, deductions});
      if (!changed.length) {
        $("entry-error").textContent = "无改动 Nothing changed: the table already has these scores.";
        return;
      }
      CONFIRMING = key;
      fill($("entry-confirm"), el("strong", {}, `更正第${t.table}${term("table", "zh")} Correct table ${t.table}:`),
        el("ul", {}, changed.map((line) => el("li", {}, line))),
        "再按一次确认 Press again to confirm; change a number to cancel.");
      $("save").textContent = "确认更正 Confirm correction";
      return;
    }
  }
  try {
    await post(tApi(NAME, "results"), {
      session: Number($("session").value), table: t.table, scores, deductions,
      note: $("note").value || null, correct: t.entered,
    });
    $("entry-ok").textContent = `✓ ${t.entered ? "已更正 corrected" : "已保存 saved"}: 第${t.table}${term("table", "zh")} table ${t.table}`;
    $("note").value = "";
    unconfirm();
    await loadSummary(false);  // on to the next table not yet entered
  } catch (err) {
    if (err.status === 401) { ME = null; showLoggedIn(); }
    $("entry-error").textContent = err.message;
  }
});

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
