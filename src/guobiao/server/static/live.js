// Reload a printed report (score sheet, results table) when the tournament data changes.
"use strict";

(() => {
  const name = document.currentScript.dataset.tournament;
  let since = 0;
  async function loop() {
    for (;;) {
      try {
        const res = await fetch("/api/t/" + encodeURIComponent(name) + `/changes?since=${since}&wait=25`);
        const data = await res.json();
        if (since && data.version > since) { location.reload(); return; }
        since = data.version;
      } catch (err) {
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  }
  loop();
})();
