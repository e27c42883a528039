import Foundation
import KilnMedia
import KilnQueue

/// The review page: one static HTML file with nothing fetched from elsewhere. Videos are linked
/// by their path relative to the page (a browser plays only files it can reach; moving the page
/// with its videos keeps the links); posters and sheets are inlined as data: URIs. Every text that
/// comes from a job (names, variables, paths, errors) goes through `escape`. No absolute local
/// path is ever written: whoever the page is sent to learns nothing of the folders above it.
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
                <button type="button" id="compare-picked" disabled title="Pick two videos below">Compare picked</button>
                <button type="button" id="export">Export JSON</button>
              </div>
            </header>
            \(Self.compareSection)
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
        var video: String
        if let link {
            video = "<video controls preload=\"metadata\" playsinline src=\"\(Self.escape(link))\""
            if let facts { video += " width=\"\(facts.width)\" height=\"\(facts.height)\"" }
            if let poster = item.poster { video += " poster=\"\(Self.dataURI(poster))\"" }
            video += "></video>"
        } else {
            video = "<p class=\"unreachable\">\(Self.escape(Self.unreachable))</p>"
            if let poster = item.poster {
                video += "<img alt=\"poster of \(Self.escape(name))\" src=\"\(Self.dataURI(poster))\">"
            }
        }
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
        let renderTime = item.renderSeconds.map(Self.seconds).map {
            item.job == nil ? "\($0) (recorded on the file)" : $0
        }
        rows.append(("Render time", renderTime ?? "unknown"))
        rows.append(
            ("Real-time factor", item.realTimeFactor.map { String(format: "%.2f×", $0) } ?? "unknown"))
        if let job = item.job {
            rows.append(("Job", "\(job.name) (\(jobFile(job.jobFile)))"))
            rows.append(
                (
                    "Queue",
                    "job \(job.id)" + (job.batchID.map { " · batch \($0)" } ?? "")
                        + (job.finishedAt.map { " · finished \(QueueStore.iso($0))" } ?? "")
                ))
        } else if let tagged = item.taggedJob {
            rows.append(("Job", "\(tagged) (from the file's tags; not found in the queue)"))
        } else {
            rows.append(("Job", "unknown (not found in the queue)"))
        }
        if let version = item.tags[ContainerTags.version] {
            rows.append(("Kiln version", Self.scrub(version)))
        }
        if let digest = item.tags[ContainerTags.framesDigest] {
            rows.append(("Frames digest", Self.scrub(digest)))
        }
        rows.append(("File", link ?? "\(name) (\(Self.unreachable))"))
        // A video the page cannot reach is keyed by its name: never by where it lives.
        let key = link ?? name
        var duration = ""
        if let facts { duration = " data-duration=\"\(facts.durationSeconds)\"" }
        var out = """
            <article class="video" id="video-\(number)" data-video="\(Self.escape(key))"\(duration)\(
                link == nil ? " data-unreachable=\"\"" : "")>
              <h2><span class="number">\(number)</span> \(Self.escape(name))</h2>
              <div class="body">
                <div class="player">\(video)\(link == nil ? "" : Self.timeline)\(compareControls(item, link: link))</div>
                <dl class="facts">

            """
        for (label, value) in rows {
            out += "      <dt>\(Self.escape(label))</dt><dd>\(Self.escape(value))</dd>\n"
        }
        out += "    </dl>\n  </div>\n"
        if let job = item.job, !job.variables.isEmpty {
            out += "  <table class=\"variables\"><caption>Variables</caption>\n"
            for (key, value) in job.variables.sorted(by: { $0.key < $1.key }) {
                out += "    <tr><th>\(Self.escape(key))</th><td>\(Self.escape(Self.scrub(value)))</td></tr>\n"
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
        for note in item.notes { out += "  <p class=\"note\">\(Self.escape(Self.scrub(note)))</p>\n" }
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

    static let unreachable =
        "not reachable from the page's folder (they share no folder but the root): write the page nearer the video"

    /// The job file, as a path relative to the page where it shares a folder with it, else by name.
    func jobFile(_ path: String) -> String {
        Self.relativeLink(to: URL(fileURLWithPath: path), from: directory)?.removingPercentEncoding
            ?? URL(fileURLWithPath: path).lastPathComponent
    }

    /// Pick-to-compare and, for a job rendered before to another file, compare with that render.
    func compareControls(_ item: ReviewItem, link: String?) -> String {
        guard let link else { return "" }
        var out = """
            <div class="compare-controls"><label><input type="checkbox" class="pick" value="\(Self.escape(link))"> Pick to compare</label>
            """
        if let previous = item.previous,
            let earlier = Self.relativeLink(to: URL(fileURLWithPath: previous), from: directory)
        {
            out += """
                <button type="button" class="compare-previous" data-previous="\(Self.escape(earlier))" \
                title="the same job file's earlier render">Compare with previous (\(
                    Self.escape(URL(fileURLWithPath: previous).lastPathComponent)))</button>
                """
        }
        return out + "</div>"
    }

    /// Where notes are pinned: a click on the bar pins one at that time, a marker seeks to its note.
    static let timeline = """
        <div class="timeline" title="Click to pin a note at this time"><div class="playhead"></div></div>\
        <ol class="pins"></ol>
        """

    /// Errors, tags and variables may quote absolute paths (two or more components); the page
    /// keeps only their last component.
    static func scrub(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"(?<![\w.~])(?:/[^\s/"'<>:,()]+){2,}/?"#)
        else {
            return text
        }
        var out = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: out) else { continue }
            let last = out[range].split(separator: "/").last.map(String.init) ?? ""
            out.replaceSubrange(range, with: "…/" + last)
        }
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
    /// the shared prefix is found however either was spelled. Nil when the two share no folder but
    /// the root: `../../../srv/x.mp4` would spell out the video's absolute path.
    static func relativeLink(to target: URL, from directory: URL) -> String? {
        let to = target.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let from = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        guard common > 1 else { return nil }
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
