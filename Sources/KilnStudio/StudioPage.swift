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
        </style>
        </head>
        <body>
        <header><h1>kiln studio</h1><span id="file"></span><span id="meta"></span><span id="status"></span></header>
        <main>
        <div>
          <div id="stage"><img id="frame" alt="the frame at the playhead"></div>
          <div id="transport">
            <button id="play">Play</button>
            <input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-label="playhead (frame)">
            <input id="time" type="number" min="0" step="0.001" value="0" aria-label="seconds">
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
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const state = { job: null, version: -1, variables: {}, pins: {}, frame: 0, playing: false,
          busy: false, queued: null, renders: 0, draftRenders: 0, last: null, waiters: [] };
        const DRAFT_WIDTH = 480;
        // The session's token, from the URL kiln studio printed: every request carries it, and
        // the studio refuses one without it (another page cannot know it).
        const TOKEN = new URLSearchParams(location.search).get("token") || "";
        function api(path) { return fetch(path, { headers: { "X-Kiln-Token": TOKEN } }); }

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

        // Playback at the draft size, in real time, dropping frames the renderer cannot keep up with.
        $("play").addEventListener("click", async () => {
          if (state.playing) { state.playing = false; return; }
          state.playing = true;
          $("play").textContent = "Pause";
          const start = performance.now() - secondsOf(state.frame) * 1000;
          while (state.playing) {
            const t = (performance.now() - start) / 1000;
            if (t >= state.job.duration) break;
            setFrame(Math.floor(t * state.job.fps));
            await render(draftScale());
          }
          state.playing = false;
          $("play").textContent = "Play";
          render(1);
        });

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
        async function poll() {
          try {
            const job = await (await api("/job")).json();
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
            $("status").textContent = "the studio is not answering";
          }
          setTimeout(poll, 500);
        }

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
        };
        poll();
        </script>
        </body>
        </html>
        """
}
