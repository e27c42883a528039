import Foundation
import KilnQueue

/// The review page: one static HTML file with nothing fetched from elsewhere. Videos are linked
/// by their path relative to the page (a browser plays only files it can reach; moving the page
/// with its videos keeps the links); posters and sheets are inlined as data: URIs. Every text that
/// comes from a job (names, variables, paths, errors) goes through `escape`.
struct ReviewPage {
    var title: String
    var items: [ReviewItem]
    /// The folder the page is written to: video links are relative to it.
    var directory: URL
    var generatedAt: Date

    func html() -> String {
        var out = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="icon" href="data:,">
            <title>\(Self.escape(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header class="top">
              <div>
                <h1>\(Self.escape(title))</h1>
                <p class="meta">\(items.count) video\(items.count == 1 ? "" : "s") · generated \(
                    Self.escape(QueueStore.iso(generatedAt.timeIntervalSince1970))) by kiln review</p>
              </div>
              <div class="actions">
                <span id="tally" class="tally"></span>
                <button type="button" id="export">Export JSON</button>
              </div>
            </header>
            <main>

            """
        for (index, item) in items.enumerated() { out += article(item, number: index + 1) }
        out += """
            </main>
            <script>\(Self.script)</script>
            </body>
            </html>

            """
        return out
    }

    func article(_ item: ReviewItem, number: Int) -> String {
        let link = Self.relativeLink(to: URL(fileURLWithPath: item.path), from: directory)
        let name = URL(fileURLWithPath: item.path).lastPathComponent
        let facts = item.facts
        var video = "<video controls preload=\"metadata\" playsinline src=\"\(Self.escape(link))\""
        if let facts { video += " width=\"\(facts.width)\" height=\"\(facts.height)\"" }
        if let poster = item.poster { video += " poster=\"\(Self.dataURI(poster))\"" }
        video += "></video>"
        var rows: [(String, String)] = []
        rows.append(("Duration", facts.map { Self.seconds($0.durationSeconds) } ?? "unknown"))
        if let facts {
            rows.append(
                (
                    "Frames",
                    "\(facts.frameCount) at \(String(format: "%g", (facts.frameRate * 1000).rounded() / 1000)) fps"
                ))
            rows.append(("Size", "\(facts.width) × \(facts.height)"))
            rows.append(
                (
                    "Codec",
                    "\(facts.codec), \(facts.pixelFormat)"
                        + (facts.audioCodec.map { " + \($0) audio" } ?? ", no audio")
                ))
            rows.append(
                (
                    "Colour",
                    "primaries \(facts.colorPrimaries) · transfer \(facts.colorTransfer) · matrix \(facts.colorSpace) · range \(facts.colorRange)"
                ))
        }
        rows.append(("File size", item.bytes.map(Self.fileSize) ?? "unknown"))
        rows.append(("Render time", item.renderSeconds.map(Self.seconds) ?? "unknown"))
        rows.append(
            ("Real-time factor", item.realTimeFactor.map { String(format: "%.2f×", $0) } ?? "unknown"))
        if let job = item.job {
            rows.append(("Job", "\(job.name) (\(job.jobFile))"))
            rows.append(
                (
                    "Queue",
                    "job \(job.id)" + (job.batchID.map { " · batch \($0)" } ?? "")
                        + (job.finishedAt.map { " · finished \(QueueStore.iso($0))" } ?? "")
                ))
        } else {
            rows.append(("Job", "unknown (not found in the queue)"))
        }
        rows.append(("File", item.path))
        var out = """
            <article class="video" id="video-\(number)" data-video="\(Self.escape(link))">
              <h2><span class="number">\(number)</span> \(Self.escape(name))</h2>
              <div class="body">
                <div class="player">\(video)</div>
                <dl class="facts">

            """
        for (label, value) in rows {
            out += "      <dt>\(Self.escape(label))</dt><dd>\(Self.escape(value))</dd>\n"
        }
        out += "    </dl>\n  </div>\n"
        if let job = item.job, !job.variables.isEmpty {
            out += "  <table class=\"variables\"><caption>Variables</caption>\n"
            for (key, value) in job.variables.sorted(by: { $0.key < $1.key }) {
                out += "    <tr><th>\(Self.escape(key))</th><td>\(Self.escape(value))</td></tr>\n"
            }
            out += "  </table>\n"
        }
        if let sheet = item.sheet {
            out += """
                  <details class="sheet" open><summary>Contact sheet</summary>
                    <img alt="contact sheet of \(Self.escape(name))" src="\(Self.dataURI(sheet))">
                  </details>

                """
        }
        for note in item.notes { out += "  <p class=\"note\">\(Self.escape(note))</p>\n" }
        out += """
              <fieldset class="review">
                <legend>Review</legend>
                <label><input type="radio" name="verdict-\(number)" value="approved"> Approve</label>
                <label><input type="radio" name="verdict-\(number)" value="needs-changes"> Needs changes</label>
                <textarea rows="2" placeholder="Note for this video"></textarea>
              </fieldset>
            </article>

            """
        return out
    }

    /// Text for HTML content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func dataURI(_ jpeg: [UInt8]) -> String {
        "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }

    /// `target` relative to `directory`, each segment percent-encoded for a URL path (a `#` or `?`
    /// in a file name would otherwise end the path). Symbolic links are resolved on both sides so
    /// the shared prefix is found however either was spelled.
    static func relativeLink(to target: URL, from directory: URL) -> String {
        let to = target.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let from = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        let parts =
            Array(repeating: "..", count: from.count - common)
            + to[common...].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return parts.joined(separator: "/")
    }

    static func seconds(_ value: Double) -> String {
        value < 60
            ? String(format: "%.2f s", value)
            : String(format: "%d min %.1f s", Int(value / 60), value.truncatingRemainder(dividingBy: 60))
    }

    static func fileSize(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1_048_576 { return String(format: "%.1f MiB (%lld bytes)", value / 1_048_576, bytes) }
        if value >= 1024 { return String(format: "%.1f KiB (%lld bytes)", value / 1024, bytes) }
        return "\(bytes) bytes"
    }
}
