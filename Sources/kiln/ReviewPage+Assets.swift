// The review page's stylesheet and script, inline so the page needs nothing but its videos.
extension ReviewPage {
    static let style = """

        :root { color-scheme: dark; --bg: #15171a; --card: #1f2226; --line: #2e3238; --text: #e6e8eb;
          --dim: #9aa1a9; --accent: #6cb6ff; --ok: #4cc38a; --warn: #f0a04b; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text);
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        .top { position: sticky; top: 0; z-index: 1; display: flex; justify-content: space-between;
          align-items: center; gap: 16px; padding: 14px 28px; background: rgba(21, 23, 26, 0.94);
          border-bottom: 1px solid var(--line); }
        h1 { margin: 0; font-size: 20px; font-weight: 600; }
        .meta { margin: 2px 0 0; color: var(--dim); font-size: 12px; }
        .actions { display: flex; align-items: center; gap: 14px; }
        .tally { color: var(--dim); font-size: 13px; }
        button { background: var(--accent); color: #0b1520; border: 0; border-radius: 6px; padding: 8px 14px;
          font: inherit; font-weight: 600; cursor: pointer; }
        button:hover { filter: brightness(1.1); }
        main { padding: 24px 28px 60px; display: grid; gap: 24px; max-width: 1280px; margin: 0 auto; }
        article { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; }
        article.approved { border-color: var(--ok); }
        article.needs-changes { border-color: var(--warn); }
        h2 { margin: 0 0 14px; font-size: 16px; font-weight: 600; word-break: break-all; }
        .number { display: inline-block; min-width: 26px; padding: 1px 7px; margin-right: 6px; border-radius: 12px;
          background: var(--line); color: var(--dim); font-size: 12px; text-align: center; }
        .body { display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 20px; }
        .player video { display: block; width: 100%; height: auto; max-height: 60vh; background: #000;
          border-radius: 6px; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; font-size: 13px; }
        dt { color: var(--dim); }
        dd { margin: 0; word-break: break-word; font-variant-numeric: tabular-nums; }
        table.variables { margin-top: 14px; border-collapse: collapse; font-size: 13px; }
        table.variables caption { text-align: left; color: var(--dim); padding-bottom: 4px; }
        table.variables th, table.variables td { border: 1px solid var(--line); padding: 3px 10px; text-align: left;
          vertical-align: top; }
        table.variables th { font-weight: 500; color: var(--dim); }
        details.sheet { margin-top: 14px; }
        details.sheet summary { cursor: pointer; color: var(--dim); margin-bottom: 8px; }
        details.sheet img { display: block; max-width: 100%; height: auto; border-radius: 6px; }
        p.note { margin: 10px 0 0; color: var(--warn); font-size: 13px; }
        fieldset.review { margin: 16px 0 0; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px;
          display: flex; flex-wrap: wrap; align-items: center; gap: 8px 18px; }
        fieldset.review legend { color: var(--dim); padding: 0 6px; }
        fieldset.review textarea { flex: 1 1 100%; background: var(--bg); color: var(--text);
          border: 1px solid var(--line); border-radius: 6px; padding: 8px; font: inherit; resize: vertical; }
        .pick-row { display: flex; gap: 12px; }
        .compare-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; margin-top: 8px;
          font-size: 13px; color: var(--dim); }
        button.secondary, .compare-controls button { background: var(--line); color: var(--text); font-weight: 500;
          padding: 5px 10px; }
        button:disabled { opacity: 0.45; cursor: default; filter: none; }
        p.unreachable { margin: 0 0 8px; padding: 12px; border: 1px dashed var(--warn); border-radius: 6px;
          color: var(--warn); }
        .player img { display: block; max-width: 100%; border-radius: 6px; }
        .timeline { position: relative; height: 18px; margin-top: 8px; border-radius: 4px; cursor: copy;
          background: var(--line); }
        .timeline .playhead { position: absolute; top: 0; bottom: 0; width: 2px; left: 0; background: var(--dim);
          pointer-events: none; }
        .timeline .pin { position: absolute; top: -3px; width: 12px; height: 24px; margin-left: -6px; padding: 0;
          border-radius: 3px; background: var(--warn); cursor: pointer; }
        ol.pins { list-style: none; margin: 6px 0 0; padding: 0; display: grid; gap: 4px; font-size: 13px; }
        ol.pins:empty::before { content: "Click the bar to pin a note at that time"; color: var(--dim); font-size: 12px; }
        ol.pins li { display: flex; gap: 8px; align-items: center; }
        ol.pins .at { background: none; color: var(--accent); padding: 2px 4px; font-variant-numeric: tabular-nums;
          font-weight: 500; }
        ol.pins input { flex: 1; background: var(--bg); color: var(--text); border: 1px solid var(--line);
          border-radius: 4px; padding: 4px 6px; font: inherit; }
        ol.pins .remove { background: none; color: var(--dim); padding: 2px 6px; }
        section.compare { max-width: 1224px; margin: 24px auto 0; padding: 16px 20px; background: var(--card);
          border: 1px solid var(--accent); border-radius: 10px; scroll-margin-top: 96px; }
        section.compare[hidden] { display: none; }
        .compare-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-bottom: 12px;
          font-size: 13px; }
        .compare-bar .names { flex: 1 1 300px; word-break: break-all; }
        .stage { position: relative; background: #000; border-radius: 6px; overflow: hidden; user-select: none; }
        .stage video { display: block; width: 100%; height: auto; }
        .stage .pane { position: relative; }
        .stage .pane span { position: absolute; top: 6px; left: 8px; padding: 1px 6px; border-radius: 4px;
          background: rgba(0, 0, 0, 0.6); font-size: 12px; }
        .stage.side { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; }
        .stage.wipe .pane.b { position: absolute; inset: 0; clip-path: inset(0 0 0 var(--split, 50%)); }
        .stage.wipe .pane.b span { left: auto; right: 8px; }
        .stage .split { display: none; position: absolute; top: 0; bottom: 0; left: var(--split, 50%); width: 2px;
          margin-left: -1px; background: #fff; cursor: ew-resize; }
        .stage.wipe { cursor: ew-resize; }
        .stage.wipe .split { display: block; }
        .stage canvas { display: none; width: 100%; height: auto; }
        .stage.difference .pane { position: absolute; inset: 0; visibility: hidden; }
        .stage.difference canvas { display: block; }
        .transport { display: flex; align-items: center; gap: 12px; margin-top: 10px; font-size: 13px; }
        .transport input[type=range] { flex: 1; }
        .transport .time { font-variant-numeric: tabular-nums; color: var(--dim); min-width: 120px; text-align: right; }
        @media (max-width: 860px) { .body { grid-template-columns: 1fr; } }

        """

    /// The comparison of two videos: one transport drives both, shown side by side, as a wipe (B
    /// over A, cut at a draggable split) or as their difference.
    static let compareSection = """
        <section id="compare" class="compare" hidden aria-label="Compare two videos">
          <div class="compare-bar">
            <strong>Compare</strong>
            <span class="names"><b>A</b> <span id="compare-a"></span> · <b>B</b> <span id="compare-b"></span></span>
            <label><input type="radio" name="compare-mode" value="side" checked> Side by side</label>
            <label><input type="radio" name="compare-mode" value="wipe"> Wipe</label>
            <label><input type="radio" name="compare-mode" value="difference"> Difference</label>
            <label>Gain <select id="compare-gain"><option>1</option><option>4</option><option selected>8</option>\
        <option>16</option><option>32</option></select></label>
            <button type="button" class="secondary" id="compare-swap">Swap</button>
            <button type="button" class="secondary" id="compare-close">Close</button>
          </div>
          <div class="stage side" id="compare-stage">
            <div class="pane a"><video muted playsinline preload="auto"></video><span>A</span></div>
            <div class="pane b"><video muted playsinline preload="auto"></video><span>B</span></div>
            <div class="split"></div>
            <canvas id="compare-difference"></canvas>
          </div>
          <div class="transport">
            <button type="button" id="compare-play">Play</button>
            <input type="range" id="compare-seek" min="0" max="1000" value="0" step="1" aria-label="Time">
            <span class="time" id="compare-time">0:00.00</span>
          </div>
        </section>
        """

    /// Verdicts and notes live in localStorage under the page's path (so reopening the page keeps
    /// them); notes pinned to a time live under the video's own URL (so every page that shows the
    /// video shows them). Export JSON saves `[{video, verdict, note, notes: [{time, text}]}]`;
    /// `window.kilnReview()` returns that JSON text too, for tests and the console, and
    /// `window.kilnCompare` opens a comparison. A comparison's difference is drawn by canvas
    /// compositing ("difference", then "lighter" for the gain), never read back, so it works on
    /// a page opened from a file, whose videos taint the canvas.
    static let script = """

        (() => {
          "use strict";
          const key = "kiln-review:" + location.pathname;
          const articles = [...document.querySelectorAll("article.video")];
          let saved = {};
          try { saved = JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (_) { saved = {}; }
          const store = () => {
            try { localStorage.setItem(key, JSON.stringify(saved)); } catch (_) { /* storage off: keep in memory */ }
          };
          const clock = (t) => {
            const minutes = Math.floor(t / 60);
            return `${minutes}:${(t - minutes * 60).toFixed(2).padStart(5, "0")}`;
          };
          const pins = new Map();
          const pinKey = (video) => "kiln-review-pins:" + new URL(video, location.href).href;
          const loadPins = (video) => {
            try {
              const list = JSON.parse(localStorage.getItem(pinKey(video)) || "[]");
              return Array.isArray(list) ? list.filter((p) => Number.isFinite(p.time)).map((p) => ({ time: p.time, text: String(p.text || "") })) : [];
            } catch (_) { return []; }
          };
          const reviews = () => articles.map((article) => {
            const entry = saved[article.dataset.video] || {};
            const notes = (pins.get(article) || []).slice().sort((a, b) => a.time - b.time);
            return { video: article.dataset.video, verdict: entry.verdict || null, note: entry.note || "", notes };
          });
          const tally = () => {
            const all = reviews();
            const count = (verdict) => all.filter((r) => r.verdict === verdict).length;
            document.getElementById("tally").textContent =
              `${count("approved")} approved · ${count("needs-changes")} need changes · ` +
              `${all.length - count("approved") - count("needs-changes")} open`;
          };
          for (const article of articles) {
            const video = article.dataset.video;
            const entry = saved[video] || {};
            const note = article.querySelector("textarea");
            const radios = [...article.querySelectorAll("input[type=radio]")];
            const show = () => {
              article.classList.toggle("approved", (saved[video] || {}).verdict === "approved");
              article.classList.toggle("needs-changes", (saved[video] || {}).verdict === "needs-changes");
            };
            note.value = entry.note || "";
            for (const radio of radios) {
              radio.checked = radio.value === entry.verdict;
              radio.addEventListener("change", () => {
                saved[video] = Object.assign(saved[video] || {}, { verdict: radio.value });
                store(); show(); tally();
              });
            }
            note.addEventListener("input", () => {
              saved[video] = Object.assign(saved[video] || {}, { note: note.value });
              store();
            });
            show();
            pinNotes(article);
          }

          // Notes pinned to a time: a click on the timeline pins one there and seeks to it.
          function pinNotes(article) {
            const player = article.querySelector("video");
            const bar = article.querySelector(".timeline");
            const list = article.querySelector("ol.pins");
            if (!player || !bar || !list) return;
            const video = article.dataset.video;
            pins.set(article, loadPins(video));
            const duration = () => Number.isFinite(player.duration) && player.duration > 0
              ? player.duration : Number(article.dataset.duration) || 0;
            const keep = () => {
              try { localStorage.setItem(pinKey(video), JSON.stringify(pins.get(article))); } catch (_) { /* memory only */ }
            };
            const seek = (time) => { player.currentTime = time; };
            const draw = (focus) => {
              const notes = pins.get(article).sort((a, b) => a.time - b.time);
              bar.querySelectorAll(".pin").forEach((pin) => pin.remove());
              list.replaceChildren();
              const length = duration();
              notes.forEach((pinned) => {
                const marker = document.createElement("button");
                marker.type = "button";
                marker.className = "pin";
                marker.dataset.time = String(pinned.time);
                marker.title = `${clock(pinned.time)} ${pinned.text}`;
                marker.style.left = `${length > 0 ? Math.min(100, (pinned.time / length) * 100) : 0}%`;
                marker.addEventListener("click", (event) => { event.stopPropagation(); seek(pinned.time); });
                bar.append(marker);
                const item = document.createElement("li");
                const at = document.createElement("button");
                at.type = "button";
                at.className = "at";
                at.textContent = clock(pinned.time);
                at.addEventListener("click", () => seek(pinned.time));
                const text = document.createElement("input");
                text.value = pinned.text;
                text.placeholder = "Note at " + clock(pinned.time);
                text.addEventListener("input", () => { pinned.text = text.value; marker.title = `${clock(pinned.time)} ${text.value}`; keep(); });
                const remove = document.createElement("button");
                remove.type = "button";
                remove.className = "remove";
                remove.title = "Remove this note";
                remove.textContent = "×";
                remove.addEventListener("click", () => {
                  pins.set(article, pins.get(article).filter((p) => p !== pinned));
                  keep(); draw();
                });
                item.append(at, text, remove);
                list.append(item);
                if (pinned === focus) text.focus();
              });
            };
            bar.addEventListener("click", (event) => {
              const box = bar.getBoundingClientRect();
              const length = duration();
              if (box.width <= 0 || length <= 0) return;
              const fraction = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
              const pinned = { time: Math.round(fraction * length * 1000) / 1000, text: "" };
              pins.get(article).push(pinned);
              keep(); draw(pinned); seek(pinned.time);
            });
            const playhead = bar.querySelector(".playhead");
            player.addEventListener("timeupdate", () => {
              const length = duration();
              playhead.style.left = `${length > 0 ? (player.currentTime / length) * 100 : 0}%`;
            });
            player.addEventListener("loadedmetadata", () => draw());
            draw();
          }

          // The comparison: A is the clock, B follows it.
          const section = document.getElementById("compare");
          const stage = document.getElementById("compare-stage");
          const [a, b] = [...stage.querySelectorAll("video")];
          const canvas = document.getElementById("compare-difference");
          const context = canvas.getContext("2d");
          const scratch = document.createElement("canvas");
          const scratchContext = scratch.getContext("2d");
          const seekBar = document.getElementById("compare-seek");
          const time = document.getElementById("compare-time");
          const play = document.getElementById("compare-play");
          const gain = document.getElementById("compare-gain");
          const name = (link) => decodeURIComponent(link.split("/").pop());
          let mode = "side";
          const length = () => Math.min(...[a.duration, b.duration].filter(Number.isFinite).concat([Infinity]));
          const difference = () => {
            if (mode !== "difference" || a.readyState < 2 || b.readyState < 2) return;
            const width = a.videoWidth, height = a.videoHeight;
            if (canvas.width !== width || canvas.height !== height) {
              canvas.width = scratch.width = width;
              canvas.height = scratch.height = height;
            }
            scratchContext.globalCompositeOperation = "copy";
            scratchContext.drawImage(a, 0, 0, width, height);
            scratchContext.globalCompositeOperation = "difference";
            scratchContext.drawImage(b, 0, 0, width, height);
            context.globalCompositeOperation = "copy";
            context.fillStyle = "#000";
            context.fillRect(0, 0, width, height);
            context.globalCompositeOperation = "lighter";
            for (let i = 0; i < Number(gain.value); i++) context.drawImage(scratch, 0, 0);
            context.globalCompositeOperation = "source-over";
          };
          const tick = () => {
            const total = length();
            if (Number.isFinite(total) && total > 0) seekBar.value = String(Math.round((a.currentTime / total) * 1000));
            time.textContent = `${clock(a.currentTime)} / ${Number.isFinite(total) ? clock(total) : "?"}`;
            if (!a.paused && Math.abs(b.currentTime - a.currentTime) > 0.05) b.currentTime = a.currentTime;
            difference();
          };
          const loop = () => { tick(); if (!a.paused) requestAnimationFrame(loop); };
          const seekBoth = (t) => {
            a.currentTime = t;
            b.currentTime = t;
          };
          // Resolves once both videos show time `t`.
          const seekTo = (t) => new Promise((resolve) => {
            let waiting = 2;
            const done = () => { if (--waiting === 0) { tick(); resolve(); } };
            for (const v of [a, b]) {
              if (v.readyState >= 2 && Math.abs(v.currentTime - t) < 1e-6 && !v.seeking) { done(); continue; }
              v.addEventListener("seeked", done, { once: true });
              v.currentTime = t;
            }
          });
          const ready = (v) => new Promise((resolve) => {
            if (v.readyState >= 2) resolve();
            else v.addEventListener("loadeddata", () => resolve(), { once: true });
          });
          const setMode = (next) => {
            mode = next;
            stage.className = `stage ${next}`;
            for (const radio of section.querySelectorAll("input[name=compare-mode]")) radio.checked = radio.value === next;
            difference();
          };
          const open = (first, second) => {
            a.pause(); b.pause();
            a.src = first;
            b.src = second;
            document.getElementById("compare-a").textContent = name(first);
            document.getElementById("compare-b").textContent = name(second);
            section.hidden = false;
            play.textContent = "Play";
            return Promise.all([ready(a), ready(b)]).then(() => seekTo(0));
          };
          for (const v of [a, b]) v.addEventListener("seeked", () => difference());
          a.addEventListener("ended", () => { b.pause(); play.textContent = "Play"; tick(); });
          play.addEventListener("click", () => {
            if (a.paused) {
              if (a.ended) seekBoth(0);
              b.currentTime = a.currentTime;
              Promise.all([a.play(), b.play()]).catch(() => {});
              play.textContent = "Pause";
              requestAnimationFrame(loop);
            } else {
              a.pause(); b.pause();
              b.currentTime = a.currentTime;
              play.textContent = "Play";
            }
          });
          seekBar.addEventListener("input", () => {
            const total = length();
            if (Number.isFinite(total)) seekBoth((Number(seekBar.value) / 1000) * total);
          });
          for (const radio of section.querySelectorAll("input[name=compare-mode]")) {
            radio.addEventListener("change", () => setMode(radio.value));
          }
          gain.addEventListener("change", () => difference());
          const split = (event) => {
            const box = stage.getBoundingClientRect();
            const at = Math.min(100, Math.max(0, ((event.clientX - box.left) / box.width) * 100));
            stage.style.setProperty("--split", `${at}%`);
          };
          let dragging = false;
          stage.addEventListener("pointerdown", (event) => {
            if (mode !== "wipe") return;
            dragging = true;
            try { stage.setPointerCapture(event.pointerId); } catch (_) { /* a synthetic pointer */ }
            split(event);
          });
          stage.addEventListener("pointermove", (event) => { if (mode === "wipe" && dragging) split(event); });
          for (const end of ["pointerup", "pointercancel"]) stage.addEventListener(end, () => { dragging = false; });
          document.getElementById("compare-swap").addEventListener("click", () => {
            const [first, second] = [b.getAttribute("src"), a.getAttribute("src")];
            const at = a.currentTime;
            open(first, second).then(() => seekTo(at));
          });
          document.getElementById("compare-close").addEventListener("click", () => {
            a.pause(); b.pause();
            section.hidden = true;
          });
          const picked = () => [...document.querySelectorAll("input.pick:checked")].map((box) => box.value);
          const compareButton = document.getElementById("compare-picked");
          for (const box of document.querySelectorAll("input.pick")) {
            box.addEventListener("change", () => {
              if (picked().length > 2) for (const other of document.querySelectorAll("input.pick:checked")) {
                if (other !== box) { other.checked = false; break; }
              }
              compareButton.disabled = picked().length !== 2;
            });
          }
          const reveal = () => section.scrollIntoView({ block: "start" });
          compareButton.addEventListener("click", () => {
            const [first, second] = picked();
            if (second) { open(first, second); reveal(); }
          });
          for (const button of document.querySelectorAll("button.compare-previous")) {
            button.addEventListener("click", () => {
              const current = button.closest("article").dataset.video;
              open(button.dataset.previous, current);
              reveal();
            });
          }
          window.kilnCompare = {
            open: (first, second, view) => open(first, second).then(() => setMode(view || "side")),
            seek: (t) => seekTo(t),
            mode: (view) => setMode(view),
            videos: () => [a, b],
          };
          window.kilnReview = () => JSON.stringify(reviews(), null, 2);
          document.getElementById("export").addEventListener("click", () => {
            const blob = new Blob([window.kilnReview() + "\\n"], { type: "application/json" });
            const link = document.createElement("a");
            link.href = URL.createObjectURL(blob);
            link.download = "review.json";
            document.body.append(link);
            link.click();
            link.remove();
            setTimeout(() => URL.revokeObjectURL(link.href), 1000);
          });
          tally();
        })();

        """
}
