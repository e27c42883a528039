import CMicroHTTPD
import Foundation

/// One GET request as the studio sees it: the path, the query's arguments (the last of a
/// repeated name wins) and the headers the routes check. Bodies are never read.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    /// The Host header: checked by the routes so a page on another site cannot reach the studio
    /// through a DNS name pointed at 127.0.0.1 (DNS rebinding).
    public let host: String?
    /// `Origin` and `Sec-Fetch-Site`: what a browser says about the page that made the request.
    public let origin: String?
    public let fetchSite: String?
    /// The session token sent as the `X-Kiln-Token` header (the page's fetches).
    public let tokenHeader: String?

    public init(
        method: String, path: String, query: [String: String], host: String?, origin: String? = nil,
        fetchSite: String? = nil, tokenHeader: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.host = host
        self.origin = origin
        self.fetchSite = fetchSite
        self.tokenHeader = tokenHeader
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int = 200, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    public static func text(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    public static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: Array(data))
    }
}

public struct HTTPServerError: Error, CustomStringConvertible {
    public let description: String
}

/// An embedded libmicrohttpd daemon: a thread per connection under MHD's own listening thread,
/// each calling `handler`. `stop()` (or deinit) closes the socket and joins those threads.
///
/// A thread per connection because a handler may wait for a render: in MHD's pooled modes that
/// wait would stall every other connection its thread serves. The cost of a thread is why the
/// connection count is capped, and the cap is why a connection that does not send its request
/// promptly is cut (`ConnectionWatch`): otherwise a few dozen sockets trickling bytes would hold
/// every slot for as long as they liked.
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: `daemon` is written once in init and cleared only by `stop()` under `lock`.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct Limits: Sendable {
        /// Simultaneous connections; beyond it MHD refuses new ones.
        public var connections: UInt32 = 128
        /// Connections from one address. Every client of a studio on loopback is 127.0.0.1, so
        /// there a lower cap would only shrink the total for everyone, the studio's own page
        /// included; it separates clients only when --host widens the address.
        public var connectionsPerAddress: UInt32 = 128
        /// A connection that is idle, or has not finished sending its request, or is not reading
        /// its response, for this long is closed.
        public var timeoutSeconds: UInt32 = 10

        public init() {}

        /// The limits for a daemon on `host`: on a widened address one client may hold at most
        /// half the connections.
        public static func serving(_ host: String, timeoutSeconds: UInt32) -> Limits {
            var limits = Limits()
            limits.timeoutSeconds = timeoutSeconds
            if !host.hasPrefix("127.") { limits.connectionsPerAddress = limits.connections / 2 }
            return limits
        }
    }

    /// Query arguments read per request; the rest are ignored.
    static let maximumArguments = 256

    private let lock = NSLock()
    private var daemon: OpaquePointer?
    private let context: Unmanaged<ServerContext>
    private let watch: ConnectionWatch
    public let port: Int

    public init(host: String, port: Int, limits: Limits = Limits(), handler: @escaping Handler)
        throws(HTTPServerError)
    {
        guard (0...65535).contains(port) else {
            throw HTTPServerError(description: "port \(port) is not 0…65535")
        }
        let watch = ConnectionWatch(deadline: .seconds(Int(limits.timeoutSeconds)))
        let box = Unmanaged.passRetained(ServerContext(handler: handler, watch: watch))
        guard
            let started = kiln_mhd_start(
                host, UInt16(port), accessHandler, box.toOpaque(), limits.connections,
                limits.connectionsPerAddress, limits.timeoutSeconds, connectionNotifier, completionNotifier)
        else {
            box.release()
            throw HTTPServerError(
                description: "cannot listen on \(host):\(port) (is the address one of this machine's, "
                    + "and the port free?)")
        }
        daemon = started
        context = box
        self.watch = watch
        self.port = Int(kiln_mhd_bound_port(started))
        watch.start()
    }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let running = daemon else { return }
        daemon = nil
        watch.stop()
        MHD_stop_daemon(running)
        context.release()
    }

    deinit { stop() }
}

/// What MHD's callbacks reach through their context pointer, kept alive for MHD's threads by the
/// retained Unmanaged reference.
final class ServerContext: Sendable {
    let handler: HTTPServer.Handler
    let watch: ConnectionWatch
    init(handler: @escaping HTTPServer.Handler, watch: ConnectionWatch) {
        self.handler = handler
        self.watch = watch
    }
}

/// Collects a request's query arguments in MHD's iterator callback.
final class ArgumentCollector {
    var arguments: [String: String] = [:]
    var count = 0
}

private let argumentIterator: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = Unmanaged<ArgumentCollector>.fromOpaque(context).takeUnretainedValue()
    collector.count += 1
    guard collector.count <= HTTPServer.maximumArguments else { return .NO }
    collector.arguments[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return .YES
}

private func connectionKey(_ connection: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: connection))
}

private let connectionNotifier: MHD_NotifyConnectionCallback = { context, connection, _, code in
    guard let context, let connection else { return }
    let watch = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch
    if code == .CONNECTION_NOTIFY_STARTED {
        watch.opened(connectionKey(connection), socket: kiln_mhd_connection_fd(connection))
    } else {
        watch.closed(connectionKey(connection))
    }
}

private let completionNotifier: MHD_RequestCompletedCallback = { context, connection, _, _ in
    guard let context, let connection else { return }
    Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch.waiting(
        connectionKey(connection))
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    // The request is in: however long the handler waits for a render, the connection is not idle.
    server.watch.answering(connectionKey(connection))
    defer { server.watch.waiting(connectionKey(connection)) }
    let collector = ArgumentCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, .GET_ARGUMENT_KIND, argumentIterator, Unmanaged.passUnretained(collector).toOpaque())
    }
    func header(_ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
        query: collector.arguments, host: header("Host"), origin: header("Origin"),
        fetchSite: header("Sec-Fetch-Site"), tokenHeader: header("X-Kiln-Token"))
    let reply = server.handler(request)
    // A copy: MHD sends after this returns.
    let body = reply.body.isEmpty ? [UInt8(ascii: "\n")] : reply.body
    guard
        let response = body.withUnsafeBytes({ kiln_mhd_copied_response($0.baseAddress, $0.count) })
    else { return .NO }
    defer { MHD_destroy_response(response) }
    _ = MHD_add_response_header(response, "Content-Type", reply.contentType)
    // Every answer depends on the job file and the sliders of the moment.
    _ = MHD_add_response_header(response, "Cache-Control", "no-store")
    _ = MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    // The page's URL holds the session token: never send it on as a Referer, and let no other
    // site embed a frame or the page.
    _ = MHD_add_response_header(response, "Referrer-Policy", "no-referrer")
    _ = MHD_add_response_header(response, "Cross-Origin-Resource-Policy", "same-origin")
    _ = MHD_add_response_header(response, "X-Frame-Options", "DENY")
    _ = MHD_add_response_header(
        response, "Content-Security-Policy",
        "default-src 'self'; img-src 'self' blob: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
            + "frame-ancestors 'none'"
    )
    return MHD_queue_response(connection, UInt32(reply.status), response)
}
