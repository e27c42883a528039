/// The studio's one page: self-contained (no external resources), talking to /job, /frame and
/// /value. `window.kilnStudio` drives the same controls a person uses (the browser tests call it).
enum StudioPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>kiln studio</title>
        <link rel="icon" href="data:,">
        <style>
        body { font: 14px system-ui, sans-serif; margin: 0; background: #1d1f23; color: #e6e6e6; }
        header { padding: 8px 16px; background: #2a2d33; display: flex; gap: 16px; align-items: baseline; }
        header h1 { font-size: 16px; margin: 0; }
        main { display: grid; grid-template-columns: 1fr 320px; gap: 16px; padding: 16px; }
        #stage { background: #000; display: flex; align-items: center; justify-content: center; min-height: 300px; }
        #frame { width: 100%; max-height: 65vh; object-fit: contain; }
        #transport { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
        #scrub { flex: 1; }
        #time { width: 80px; }
        aside section { background: #2a2d33; padding: 8px 12px; margin-bottom: 12px; border-radius: 4px; }
        aside h2 { font-size: 13px; margin: 0 0 8px; text-transform: uppercase; color: #aab; }
        .control { margin-bottom: 8px; }
        .control label { display: block; font-size: 12px; color: #ccd; word-break: break-all; }
        .control input[type=range] { width: 60%; }
        .control input[type=number], .control input[type=text] { width: 35%; }
        #problem { white-space: pre-wrap; color: #ffb4a8; background: #4a2020; padding: 8px; display: none; }
        #status { color: #aab; font-size: 12px; }
        button { background: #3b4049; color: #e6e6e6; border: 1px solid #555; border-radius: 3px; padding: 3px 10px; }
        button[aria-pressed=true] { background: #2f6db5; }
        button:disabled { opacity: 0.5; }
        #offline { display: none; background: #7a2a1a; color: #fff; padding: 8px 16px; font-weight: 600; }
        .overlay { display: none; position: fixed; inset: 0; background: rgba(0,0,0,0.6); align-items: center; justify-content: center; z-index: 10; }
        .overlay > div { background: #2a2d33; padding: 16px 20px; border-radius: 6px; max-width: 760px; max-height: 80vh; overflow: auto; }
        .overlay h2 { font-size: 15px; margin: 0 0 12px; }
        #changes { margin: 0 0 8px; padding-left: 18px; font-family: ui-monospace, monospace; font-size: 12px; }
        #diff { background: #15171a; padding: 8px; font-size: 12px; white-space: pre; overflow: auto; }
        #saveProblem { color: #ffb4a8; white-space: pre-wrap; }
        #help table { border-collapse: collapse; }
        #help td { padding: 3px 12px 3px 0; }
        kbd { background: #3b4049; border: 1px solid #555; border-radius: 3px; padding: 0 5px; font: 12px ui-monospace, monospace; }
        #range { color: #aab; font-size: 12px; min-width: 120px; }
        </style>
        </head>
        <body>
        <div id="offline" role="alert"></div>
        <header><h1>kiln studio</h1><span id="file"></span><span id="meta"></span><span id="status"></span>
          <span style="flex:1"></span>
          <button id="save" title="write the tuned values into the job file (a diff is shown first)">Save…</button>
          <button id="undo" disabled title="put back the job file as it was before the last save">Undo save</button>
          <button id="helpButton" title="keyboard shortcuts (?)">?</button></header>
        <main>
        <div>
          <div id="stage"><img id="frame" alt="the frame at the playhead"></div>
          <div id="transport">
            <button id="play" title="play or pause (space; J/K/L)">Play</button>
            <button id="loop" aria-pressed="false" title="loop playback over the in/out range or the whole job (Shift+L)">Loop</button>
            <input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-label="playhead (frame)">
            <input id="time" type="number" min="0" step="0.001" value="0" aria-label="seconds">
            <span id="range"></span>
          </div>
          <pre id="problem"></pre>
        </div>
        <aside>
          <section><h2>Variables</h2><div id="variables"></div></section>
          <section><h2>Pinned numbers</h2>
            <div class="control"><input id="pinPath" type="text" placeholder="layers[0].opacity" style="width:70%">
            <button id="pinAdd">Pin</button></div>
            <div id="pins"></div></section>
        </aside>
        </main>
        <div id="confirm" class="overlay" role="dialog" aria-modal="true" aria-labelledby="confirmTitle"><div>
          <h2 id="confirmTitle">Save these values into the job file?</h2>
          <ul id="changes"></ul>
          <pre id="diff"></pre>
          <p id="saveProblem"></p>
          <button id="saveConfirm">Save</button> <button id="saveCancel">Cancel</button>
        </div></div>
        <div id="help" class="overlay" role="dialog" aria-modal="true" aria-labelledby="helpTitle"><div>
          <h2 id="helpTitle">Keyboard shortcuts</h2>
          <table>
          <tr><td><kbd>Space</kbd></td><td>play / pause</td></tr>
          <tr><td><kbd>←</kbd> <kbd>→</kbd></td><td>one frame back / forward</td></tr>
          <tr><td><kbd>Shift</kbd>+<kbd>←</kbd> <kbd>→</kbd></td><td>one second back / forward</td></tr>
          <tr><td><kbd>J</kbd></td><td>play backwards (again: faster, up to 8×)</td></tr>
          <tr><td><kbd>K</kbd></td><td>pause</td></tr>
          <tr><td><kbd>L</kbd></td><td>play forwards (again: faster, up to 8×)</td></tr>
          <tr><td><kbd>Home</kbd> <kbd>End</kbd></td><td>first / last frame</td></tr>
          <tr><td><kbd>I</kbd> <kbd>O</kbd></td><td>set the in / out point at the playhead</td></tr>
          <tr><td><kbd>X</kbd></td><td>clear the in and out points</td></tr>
          <tr><td><kbd>Shift</kbd>+<kbd>L</kbd></td><td>loop on / off (over in…out, or the whole job)</td></tr>
          <tr><td><kbd>?</kbd></td><td>this help; <kbd>Esc</kbd> closes it</td></tr>
          </table>
          <p>Shortcuts are off while a text or number field has the focus (<kbd>Esc</kbd> leaves it).</p>
        </div></div>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const state = { job: null, version: -1, variables: {}, pins: {}, frame: 0, playing: false,
          busy: false, queued: null, renders: 0, draftRenders: 0, last: null, waiters: [],
          speed: 0, anchor: null, loop: false, inPoint: null, outPoint: null, offline: false,
          pollDelay: 500 };
        const DRAFT_WIDTH = 480;
        // The session's token, from the URL kiln studio printed: every request carries it, and
        // the studio refuses one without it (another page cannot know it).
        const TOKEN = new URLSearchParams(location.search).get("token") || "";
        function api(path, options = {}) {
          return fetch(path, { ...options, headers: { "X-Kiln-Token": TOKEN } });
        }

        function fnv1a(bytes) {
          let h = 0x811c9dc5;
          for (const b of bytes) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
          return h.toString(16).padStart(8, "0");
        }
        function draftScale() {
          if (!state.job) return 1;
          // At most half size, and no wider than DRAFT_WIDTH: quick enough to follow a drag.
              return Math.min(0.5, Math.max(0.05, DRAFT_WIDTH / state.job.width));
        }
        function secondsOf(frame) { return frame / state.job.fps; }
        function showProblem(text) {
          $("problem").textContent = text || "";
          $("problem").style.display = text ? "block" : "none";
        }

        // One request at a time; while one is out, only the newest wish is kept (a drag skips frames).
        function render(scale) {
          if (!state.job) return Promise.resolve(null);
          const wish = { frame: state.frame, scale };
          return new Promise((resolve) => {
            if (state.busy) { if (state.queued) state.queued.resolve(null); state.queued = { wish, resolve }; return; }
            run(wish, resolve);
          });
        }
        async function run(wish, resolve) {
          state.busy = true;
          const query = new URLSearchParams({ t: String(secondsOf(wish.frame)), scale: String(wish.scale) });
          for (const [k, v] of Object.entries(state.variables)) query.append("var." + k, v);
          for (const [k, v] of Object.entries(state.pins)) query.append("pin." + k, String(v));
          let result = null;
          try {
            const response = await api("/frame?" + query);
            const bytes = new Uint8Array(await response.arrayBuffer());
            if (response.ok) {
              const url = URL.createObjectURL(new Blob([bytes], { type: "image/png" }));
              const img = $("frame");
              const old = img.src;
              await new Promise((done) => { img.onload = done; img.onerror = done; img.src = url; });
              if (old.startsWith("blob:")) URL.revokeObjectURL(old);
              state.renders += 1;
              if (wish.scale < 1) state.draftRenders += 1;
              result = { frame: wish.frame, t: secondsOf(wish.frame), scale: wish.scale, bytes: bytes.length,
                hash: fnv1a(bytes), version: state.version, renders: state.renders,
                draftRenders: state.draftRenders };
              state.last = result;
              document.body.dataset.frameHash = result.hash;
              $("status").textContent = `frame ${wish.frame}` + (wish.scale < 1 ? " (draft)" : "");
              if (!state.jobProblem) showProblem("");
            } else {
              // Invalid values: say why, keep the last good frame on screen.
              showProblem(new TextDecoder().decode(bytes));
              result = { problem: new TextDecoder().decode(bytes) };
            }
          } catch (error) {
            showProblem(String(error));
          }
          state.busy = false;
          resolve(result);
          const next = state.queued;
          state.queued = null;
          if (next) run(next.wish, next.resolve);
        }

        function setFrame(frame) {
          state.frame = Math.max(0, Math.min(state.job.frames - 1, Math.round(frame)));
          $("scrub").value = String(state.frame);
          $("time").value = secondsOf(state.frame).toFixed(3);
        }
        $("scrub").addEventListener("input", () => { setFrame(Number($("scrub").value)); render(draftScale()); });
        $("scrub").addEventListener("change", () => { setFrame(Number($("scrub").value)); render(1); });
        $("time").addEventListener("change", () => {
          setFrame(Math.floor(Number($("time").value) * state.job.fps + 1e-9)); render(1);
        });

        // The in/out range (whole job when unset); loop playback stays inside it.
        function loopRange() {
          const last = state.job.frames - 1;
          let lo = state.inPoint ?? 0, hi = state.outPoint ?? last;
          if (lo > hi) [lo, hi] = [hi, lo];
          return [Math.max(0, lo), Math.min(last, hi)];
        }
        function showTransport() {
          $("play").textContent = state.playing ? "Pause" : "Play";
          $("loop").setAttribute("aria-pressed", String(state.loop));
          const parts = [];
          if (state.playing && Math.abs(state.speed) !== 1) parts.push((state.speed < 0 ? "◀ " : "▶ ") + Math.abs(state.speed) + "×");
          else if (state.playing && state.speed < 0) parts.push("◀ reverse");
          if (state.inPoint !== null || state.outPoint !== null) {
            const [lo, hi] = loopRange();
            parts.push(`in ${lo} · out ${hi}`);
          }
          if (state.loop) parts.push("loop");
          $("range").textContent = parts.join(" · ");
        }
        // Playback at the draft size, in real time times the speed (negative: backwards), dropping
        // frames the renderer cannot keep up with; the frame it stops on is then shown at full size.
        function play(speed) {
          state.speed = speed;
          state.anchor = { time: performance.now(), frame: state.frame };
          if (!state.playing) { state.playing = true; playLoop(); }
          showTransport();
        }
        function pause() { state.playing = false; showTransport(); }
        async function playLoop() {
          const [lo, hi] = state.loop ? loopRange() : [0, state.job.frames - 1];
          // Play from the end starts over, as video players do.
          if (state.speed > 0 && state.frame >= hi) { setFrame(lo); state.anchor.frame = lo; }
          if (state.speed < 0 && state.frame <= lo) { setFrame(hi); state.anchor.frame = hi; }
          while (state.playing && !state.offline) {
            const [lo, hi] = state.loop ? loopRange() : [0, state.job.frames - 1];
            const elapsed = (performance.now() - state.anchor.time) / 1000;
            let frame = state.anchor.frame + Math.trunc(elapsed * state.speed * state.job.fps);
            if (frame > hi || frame < lo) {
              if (!state.loop) { setFrame(Math.max(lo, Math.min(hi, frame))); break; }
              frame = state.speed > 0 ? lo : hi;
              state.anchor = { time: performance.now(), frame };
            }
            setFrame(frame);
            await render(draftScale());
          }
          state.playing = false;
          state.speed = 0;
          showTransport();
          await render(1);
        }
        function togglePlay() { if (state.playing) pause(); else play(1); }
        function step(frames) { pause(); setFrame(state.frame + frames); render(1); }
        function faster(direction) {
          const speed = state.playing && Math.sign(state.speed) === direction ? Math.min(8, Math.abs(state.speed) * 2) : 1;
          play(direction * speed);
        }
        function toggleLoop() { state.loop = !state.loop; showTransport(); }
        $("play").addEventListener("click", togglePlay);
        $("loop").addEventListener("click", toggleLoop);

        // Keyboard shortcuts, as video editors have them (the ? overlay lists them). Off while a
        // text or number field has the focus, so typing a value types.
        function overlayShown(id) { return $(id).style.display === "flex"; }
        function showOverlay(id, shown) { $(id).style.display = shown ? "flex" : "none"; }
        document.addEventListener("keydown", (event) => {
          const target = event.target;
          const typing = target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type !== "range"));
          if (event.key === "Escape") {
            if (typing) target.blur();
            showOverlay("help", false);
            if (overlayShown("confirm")) closeSave();
            return;
          }
          if (typing || event.ctrlKey || event.metaKey || event.altKey || !state.job) return;
          if (overlayShown("confirm")) return;
          const second = Math.max(1, Math.round(state.job.fps));
          switch (event.key) {
            case " ": togglePlay(); break;
            case "ArrowLeft": step(event.shiftKey ? -second : -1); break;
            case "ArrowRight": step(event.shiftKey ? second : 1); break;
            case "Home": step(-state.frame); break;
            case "End": step(state.job.frames - 1 - state.frame); break;
            case "j": case "J": faster(-1); break;
            case "k": case "K": pause(); break;
            case "l": faster(1); break;
            case "L": toggleLoop(); break;
            case "i": case "I": state.inPoint = state.frame; showTransport(); break;
            case "o": case "O": state.outPoint = state.frame; showTransport(); break;
            case "x": case "X": state.inPoint = null; state.outPoint = null; showTransport(); break;
            case "?": showOverlay("help", !overlayShown("help")); break;
            default: return;
          }
          event.preventDefault();
        });
        // A focused button would also take Space as a click.
        document.addEventListener("keyup", (event) => {
          if (event.key === " " && event.target && event.target.tagName === "BUTTON") event.preventDefault();
        });
        $("helpButton").addEventListener("click", () => showOverlay("help", true));
        $("help").addEventListener("click", (event) => { if (event.target === $("help")) showOverlay("help", false); });

        // Save: the server answers with the values that would change and a diff; only after
        // Confirm does it write, and only if the file is still what the page shows.
        function saveQuery(confirm) {
          const query = new URLSearchParams({ version: String(state.version), confirm: confirm ? "1" : "0" });
          for (const [k, v] of Object.entries(state.variables)) query.append("var." + k, v);
          for (const [k, v] of Object.entries(state.pins)) query.append("pin." + k, String(v));
          return query;
        }
        async function post(path, query) {
          try {
            const response = await api(path + "?" + query, { method: "POST" });
            const answer = await response.json();
            return { ok: response.ok, ...answer };
          } catch (error) {
            return { ok: false, problem: "the studio is not answering: " + error };
          }
        }
        async function openSave() {
          const answer = await post("/save", saveQuery(false));
          $("saveProblem").textContent = "";
          if (!answer.ok) { $("status").textContent = "not saved"; showProblem(answer.problem); return answer; }
          if (answer.changes.length === 0) {
            $("status").textContent = "nothing to save: the job file already holds these values";
            return answer;
          }
          const list = $("changes");
          list.replaceChildren();
          for (const change of answer.changes) {
            const item = document.createElement("li");
            item.textContent = `${change.path} (line ${change.line}): ${change.old} → ${change.new}`;
            list.append(item);
          }
          $("diff").textContent = answer.diff;
          $("saveConfirm").disabled = false;
          showOverlay("confirm", true);
          $("saveConfirm").focus();
          return answer;
        }
        function closeSave() { showOverlay("confirm", false); }
        async function confirmSave() {
          $("saveConfirm").disabled = true;
          const answer = await post("/save", saveQuery(true));
          if (!answer.ok) {
            $("saveProblem").textContent = answer.problem;
            return answer;
          }
          closeSave();
          $("status").textContent = `saved ${answer.changes.length} value${answer.changes.length === 1 ? "" : "s"} into ${state.job.file}`;
          $("undo").disabled = false;
          poll.now();
          return answer;
        }
        async function undoSave() {
          const answer = await post("/undo", new URLSearchParams());
          if (!answer.ok) { showProblem(answer.problem); return answer; }
          $("status").textContent = "undone: the job file is as it was before the save";
          poll.now();
          return answer;
        }
        $("save").addEventListener("click", openSave);
        $("saveConfirm").addEventListener("click", confirmSave);
        $("saveCancel").addEventListener("click", closeSave);
        $("undo").addEventListener("click", undoSave);

        function numberControl(label, value, min, max, onChange) {
          const box = document.createElement("div");
          box.className = "control";
          const name = document.createElement("label");
          name.textContent = label;
          const slider = document.createElement("input");
          slider.type = "range"; slider.min = String(min); slider.max = String(max);
          slider.step = String((max - min) / 1000 || 0.001); slider.value = String(value);
          const field = document.createElement("input");
          field.type = "number"; field.step = "any"; field.value = String(value);
          slider.addEventListener("input", () => { field.value = slider.value; onChange(slider.value, true); });
          slider.addEventListener("change", () => { field.value = slider.value; onChange(slider.value, false); });
          field.addEventListener("change", () => { slider.value = field.value; onChange(field.value, false); });
          box.append(name, slider, field);
          return { box, slider, field };
        }
        function buildVariables() {
          const holder = $("variables");
          holder.replaceChildren();
          const declared = state.job.variables || [];
          const kept = {};
          for (const v of declared) if (v.name in state.variables) kept[v.name] = state.variables[v.name];
          state.variables = kept;
          if (declared.length === 0) holder.textContent = "The job declares no variables.";
          for (const v of declared) {
            const value = state.variables[v.name] ?? v.default;
            let control;
            const changed = (text, dragging) => { state.variables[v.name] = text; render(dragging ? draftScale() : 1); };
            if (v.type === "number") {
              const d = Number(v.default);
              const min = v.min ?? Math.min(0, d * 2), max = v.max ?? Math.max(1, d * 2);
              control = numberControl(v.name, value, min, max, changed);
              control.field.dataset.variable = v.name;
            } else {
              control = { box: document.createElement("div") };
              control.box.className = "control";
              const label = document.createElement("label");
              label.textContent = v.name + " (" + v.type + ")";
              const field = document.createElement("input");
              field.type = "text"; field.value = value; field.dataset.variable = v.name;
              field.addEventListener("change", () => changed(field.value, false));
              control.box.append(label, field);
            }
            holder.append(control.box);
          }
        }
        async function addPin(path) {
          const response = await api("/value?" + new URLSearchParams({ path }));
          const answer = await response.json();
          if (!response.ok) { showProblem(answer.problem); return null; }
          const value = answer.value;
          state.pins[path] = value;
          const span = Math.max(1, Math.abs(value) * 2);
          const control = numberControl(path, value, Math.min(0, value - span), value + span, (text, dragging) => {
            state.pins[path] = Number(text); render(dragging ? draftScale() : 1);
          });
          control.field.dataset.pin = path;
          const remove = document.createElement("button");
          remove.textContent = "Unpin";
          remove.addEventListener("click", () => { delete state.pins[path]; control.box.remove(); render(1); });
          control.box.append(remove);
          $("pins").append(control.box);
          return render(1);
        }
        $("pinAdd").addEventListener("click", () => { const p = $("pinPath").value.trim(); if (p) addPin(p); });

        // The job file is watched by the server; a new version re-reads the job and re-renders.
        // When the server stops answering, the page says so and asks less and less often (at
        // most every 5 s) until it answers again.
        async function poll() {
          // One poll at a time: a save asks for one at once, and two would each set a timer.
          if (poll.running) { poll.again = true; return; }
          poll.running = true;
          clearTimeout(poll.timer);
          try {
            const abort = new AbortController();
            const timeout = setTimeout(() => abort.abort(), 3000);
            let response;
            try { response = await fetch("/job", { headers: { "X-Kiln-Token": TOKEN }, signal: abort.signal }); }
            finally { clearTimeout(timeout); }
            if (response.status === 403) throw new Error("refused: a restarted studio prints a new URL (with a new token); open that one");
            if (!response.ok) throw new Error("answered " + response.status);
            const job = await response.json();
            if (state.offline) {
              state.offline = false;
              $("offline").style.display = "none";
              $("status").textContent = "the studio is back";
            }
            state.pollDelay = 500;
            $("undo").disabled = !job.undoable;
            if (job.version !== state.version) {
              state.version = job.version;
              state.jobProblem = job.problem || null;
              showProblem(job.problem ? job.file + " does not load; showing the last version that did:\\n" + job.problem : "");
              if (job.width) {
                state.job = job;
                $("file").textContent = job.file;
                $("meta").textContent = `${job.width}×${job.height} · ${job.fps} fps · ${job.duration} s · ${job.frames} frames`;
                $("scrub").max = String(job.frames - 1);
                buildVariables();
                setFrame(state.frame);
                await render(1);
              }
              document.body.dataset.version = String(state.version);
              const waiting = state.waiters;
              state.waiters = [];
              for (const w of waiting) w();
            }
          } catch (error) {
            state.offline = true;
            state.playing = false;
            state.pollDelay = Math.min(5000, Math.max(1000, state.pollDelay * 2));
            const why = error && error.name === "AbortError" ? "it did not answer within 3 s" : String(error.message || error);
            $("offline").textContent = "The studio server is not answering (" + why + "): was it stopped? " +
              "The frame shown may be stale. Trying again every " + (state.pollDelay / 1000) + " s.";
            $("offline").style.display = "block";
            $("status").textContent = "the studio is not answering";
          }
          poll.running = false;
          poll.timer = setTimeout(poll, poll.again ? 0 : state.pollDelay);
          poll.again = false;
        }
        poll.now = () => poll();

        function changeEvent(element, type) { element.dispatchEvent(new Event(type)); }
        window.kilnStudio = {
          ready: () => new Promise((resolve) => {
            const check = () => (state.last ? resolve(state.last) : setTimeout(check, 50));
            check();
          }),
          state: () => ({ version: state.version, last: state.last, problem: $("problem").textContent }),
          // As a person: drag the scrubber to the frame shown at t, then let go.
          seek: async (t) => {
            const scrub = $("scrub");
            scrub.value = String(Math.floor(t * state.job.fps + 1e-9));
            changeEvent(scrub, "input");
            scrub.value = String(Math.floor(t * state.job.fps + 1e-9));
            setFrame(Number(scrub.value));
            return render(1);
          },
          setVariable: (name, value) => {
            const field = document.querySelector(`[data-variable="${name}"]`);
            field.value = String(value);
            state.variables[name] = String(value);
            changeEvent(field, "change");
            return render(1);
          },
          pin: (path) => addPin(path),
          setPin: (path, value) => {
            const field = document.querySelector(`[data-pin="${path}"]`);
            field.value = String(value);
            state.pins[path] = Number(value);
            return render(1);
          },
          // Play for `ms`, then pause; resolves once the full-size frame at the playhead is shown.
          playFor: async (ms) => {
            $("play").click();
            await new Promise((done) => setTimeout(done, ms));
            $("play").click();
            await new Promise((done) => {
              const check = () => ($("play").textContent === "Play" && !state.busy && !state.queued
                ? done() : setTimeout(check, 20));
              check();
            });
            return state.last;
          },
          nextVersion: (version) => new Promise((resolve) => {
            if (state.version > version) resolve(state.last); else state.waiters.push(() => resolve(state.last));
          }),
          // The playback state, once playing has stopped and the frame at the playhead is shown.
          settled: () => new Promise((resolve) => {
            const check = () => (!state.playing && !state.busy && !state.queued ? resolve(kilnStudio.transport()) : setTimeout(check, 20));
            check();
          }),
          transport: () => ({ frame: state.frame, playing: state.playing, speed: state.speed, loop: state.loop,
            inPoint: state.inPoint, outPoint: state.outPoint, help: overlayShown("help"), last: state.last }),
          // Frames the playhead visits while playing for `ms` (for loop and reverse checks).
          watch: (ms) => new Promise((resolve) => {
            const seen = [];
            const timer = setInterval(() => seen.push(state.frame), 15);
            setTimeout(() => { clearInterval(timer); resolve({ seen, transport: kilnStudio.transport() }); }, ms);
          }),
          // As a person: click Save…, read the dialog.
          save: async () => {
            const answer = await openSave();
            return { shown: overlayShown("confirm"), changes: answer.changes, diff: $("diff").textContent,
              items: [...$("changes").children].map((li) => li.textContent), problem: answer.problem || null };
          },
          confirmSave: async () => {
            const version = state.version;
            const answer = await confirmSave();
            if (!answer.ok) return { problem: answer.problem, dialog: overlayShown("confirm") };
            const last = await kilnStudio.nextVersion(version);
            return { saved: answer.saved, last, dialog: overlayShown("confirm"), undo: !$("undo").disabled };
          },
          undo: async () => {
            const version = state.version;
            const answer = await undoSave();
            if (!answer.ok) return { problem: answer.problem };
            return { last: await kilnStudio.nextVersion(version) };
          },
          offline: (wanted) => new Promise((resolve) => {
            const check = () => (state.offline === wanted
              ? resolve({ offline: state.offline, banner: $("offline").style.display === "block" ? $("offline").textContent : "",
                  delay: state.pollDelay })
              : setTimeout(check, 50));
            check();
          }),
        };
        poll();
        </script>
        </body>
        </html>
        """
}
