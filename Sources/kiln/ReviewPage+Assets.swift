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
        @media (max-width: 860px) { .body { grid-template-columns: 1fr; } }

        """

    /// Verdicts and notes live in localStorage under the page's path (so reopening the page keeps
    /// them) and leave as a JSON file of `[{video, verdict, note}]` by Export JSON.
    /// `window.kilnReview()` returns that JSON text too, for tests and the console.
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
          const reviews = () => articles.map((article) => {
            const entry = saved[article.dataset.video] || {};
            return { video: article.dataset.video, verdict: entry.verdict || null, note: entry.note || "" };
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
          }
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
