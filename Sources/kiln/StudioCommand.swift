import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnStudio

#if canImport(Glibc)
    import Glibc
#endif

/// `kiln studio JOB [--port P]`: a local page to scrub, play and tune a job, re-rendering as the
/// job file changes. Served by libmicrohttpd (KilnStudio) on the loopback address unless --host
/// widens it.
enum StudioCommand: KilnSubcommand {
    static let port = OptionSpec(
        "--port", kind: .int(0...65535), default: .int(0),
        help: "the TCP port to listen on; 0 (the default) picks a free one; the URL is printed")
    static let host = OptionSpec(
        "--host", kind: .string, placeholder: "ADDRESS", default: .string("127.0.0.1"),
        help: "the IPv4 address to listen on; only this machine can connect to the default 127.0.0.1; "
            + "the printed URL's token is the only password: widen it (0.0.0.0) only on a network you trust")
    static let connectionTimeout = OptionSpec(
        "--connection-timeout", kind: .int(1...300), placeholder: "SECONDS", default: .int(10),
        help: "close a connection that has not sent its whole request, or is idle, after this long")
    /// The studio always confines: a page's variables can name files.
    static let assetRoot = OptionSpec(
        "--asset-root", kind: .path, placeholder: "DIR", repeatable: true,
        help:
            "read images, video clips, audio and transcripts, including those the page's variables name, only "
            + "under DIR (repeatable; symbolic links and .. resolved first; default: the job file's own "
            + "directory tree); Save writes the job file only when it lies under DIR too")
    static let spec = CommandSpec(
        "studio", summary: "serve a local page to scrub, play and tune a job, reloading as it changes",
        description: """
            Serves a page at http://127.0.0.1:PORT/?token=TOKEN (printed on stdout) showing JOB's frame
            at the playhead: a scrubber renders the frame there on demand (a draft at most half size and
            480 pixels wide while dragging, full size on release), Play plays at that draft size, and
            sliders and fields set the job's variables and any number pinned by its JSON path
            (layers[1].effects[0].ripple.amplitude, as errors print paths). The job file is re-read
            twice a second; a change that loads reloads the page's job (the terminal prints "reloaded"),
            and one that does not load prints its errors, one a line, and shows them on the page while
            the last good frame stays. A frame at full size is the pixels `kiln preview --at T` writes for
            the same values. Save… shows the tuned values (variables' defaults, pinned numbers) as a diff
            and, once confirmed, writes them into JOB atomically, replacing only those numbers' and
            strings' text (layout and key order stay byte for byte); it is refused when JOB changed on
            disk since the page loaded it, when JOB is outside the asset roots, or when the values would
            not load. Undo save puts back the text the last save replaced. Keys: Space play/pause, ←/→ a
            frame, Shift+←/→ a second, J/K/L backwards/pause/forwards, Home/End, I/O in and out points,
            Shift+L loop, ? lists them. Nothing else is written to disk. Ctrl-C stops the server (exit
            130); the page then says the server is gone. Only the printed URL works: every request must
            carry its random token and come from the studio's own page (other sites' pages are refused),
            and files named by the page's variables, like the job's own, are read only under the asset
            roots (default: the job file's folder).
            """,
        // --asset-root only: the studio writes only the job file, and only under the asset roots.
        options: [port, host, connectionTimeout, .threads, .set, .limit, assetRoot],
        positionals: [.job])

    /// How often the job file is re-read.
    static let pollSeconds = 0.5

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let file = args.positionals[0]
        let options = JobLoadOptions(
            variables: try variableSettings(args), limits: try limitSettings(args),
            pathRules: PathRules(assetRoots: try assetRoots(args, jobFile: file)))
        // The first load must succeed: a studio for a job that never loaded has nothing to show.
        if case .failure(let error) = loadJob(
            file, variables: options.variables, limits: options.limits, rules: options.pathRules)
        {
            return report(error)
        }
        let session = StudioSession(
            file: file, options: options, threads: args.int(.threads), log: { Output.stderr("kiln: \($0)") })
        session.reloadIfChanged()
        let address = args.string(host) ?? "127.0.0.1"
        installInterruptHandlers()
        let server: HTTPServer
        let access: StudioAccess
        do {
            // The routes need the bound port (for the Host check), known only once listening.
            let router = RouterBox()
            let limits = HTTPServer.Limits.serving(
                address, timeoutSeconds: UInt32(args.int(connectionTimeout) ?? 10))
            server = try HTTPServer(host: address, port: args.int(port) ?? 0, limits: limits) { request in
                router.routes?.respond(request) ?? .text("starting", status: 503)
            }
            access = StudioAccess(token: StudioAccess.newToken(), host: address, port: server.port)
            router.routes = StudioRoutes(session: session, access: access)
        } catch {
            Output.error(error.description)
            return ExitCode.unavailable
        }
        // Unbuffered: a script reading the URL from a pipe gets it now, not at exit.
        // The token goes to the terminal only: it is not in the command line or environment, which
        // other users of the machine can read.
        FileHandle.standardOutput.write(
            Data("kiln studio: http://\(address):\(server.port)/?token=\(access.token)\n".utf8))
        Output.stderr("kiln: watching \(file); Ctrl-C stops")
        var lastPoll = Date.distantPast
        while interruption.cancelledBySignal == nil {
            if Date().timeIntervalSince(lastPoll) >= pollSeconds {
                lastPoll = Date()
                switch session.reloadIfChanged() {
                case .unchanged: break
                case .loaded: Output.stderr("kiln: reloaded \(file)")
                // As `render` reports a job that does not load; the page shows the same lines.
                case .failed(let lines):
                    for line in lines { Output.stderr("kiln: error: \(line)") }
                    Output.stderr("kiln: \(file) does not load; the page keeps its last good version")
                }
            }
            usleep(50_000)
        }
        server.stop()
        return 128 + (interruption.cancelledBySignal ?? SIGINT)
    }
}

/// The --asset-root directories, resolved as `render` resolves them; without any, the job file's
/// own folder, as the queue confines a job. Unlike `render`, the studio always confines: a page's
/// variables can name files, and the page is a browser's, not the user's shell.
private func assetRoots(_ args: ParsedArguments, jobFile: String) throws -> [String] {
    let roots = try PathOptions.directories(args, StudioCommand.assetRoot)
    return roots.isEmpty
        ? [URL(fileURLWithPath: jobFile).deletingLastPathComponent().standardizedFileURL.path] : roots
}

/// Set once, before the first request can be answered usefully; read by MHD's threads.
private final class RouterBox: @unchecked Sendable {
    // @unchecked: `routes` is written once under `lock` and read under it.
    private let lock = NSLock()
    private var stored: StudioRoutes?
    var routes: StudioRoutes? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
