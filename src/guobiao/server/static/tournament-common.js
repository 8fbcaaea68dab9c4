// What the tournament pages share: their URLs, the live feed (long poll), small formatters.
"use strict";

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
// of /api/t/{name}/changes (answered at once on a change, else after `wait` seconds).
function watchTournament(name, onChange, version = 0) {
  let since = version;
  let stopped = false;
  async function loop() {
    while (!stopped) {
      try {
        const res = await fetch(tApi(name, "changes") + `?since=${since}&wait=25`);
        if (!res.ok) throw new Error(String(res.status));
        const data = await res.json();
        if (data.version > since) {
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
  dot.title = ok ? "live" : "reconnecting…";
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

const WIND_LABELS = {E: "东 E", S: "南 S", W: "西 W", N: "北 N"};
