import CMicroHTTPD
import Foundation

/// One GET request as the studio sees it: the path and the query's arguments (the last of a
/// repeated name wins). Bodies are never read.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    /// The Host header: checked by the routes so a page on another site cannot reach the studio
    /// through a DNS name pointed at 127.0.0.1 (DNS rebinding).
    public let host: String?

    public init(method: String, path: String, query: [String: String], host: String?) {
        self.method = method
        self.path = path
        self.query = query
        self.host = host
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
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: `daemon` is written once in init and cleared only by `stop()` under `lock`.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// More than a page and its polling need; beyond it MHD refuses connections.
    static let connectionLimit: UInt32 = 32
    /// An idle connection is dropped after this many seconds.
    static let timeoutSeconds: UInt32 = 30
    /// Query arguments read per request; the rest are ignored.
    static let maximumArguments = 256

    private let lock = NSLock()
    private var daemon: OpaquePointer?
    private let context: Unmanaged<HandlerBox>
    public let port: Int

    public init(host: String, port: Int, handler: @escaping Handler) throws(HTTPServerError) {
        guard (0...65535).contains(port) else {
            throw HTTPServerError(description: "port \(port) is not 0…65535")
        }
        let box = Unmanaged.passRetained(HandlerBox(handler))
        guard
            let started = kiln_mhd_start(
                host, UInt16(port), accessHandler, box.toOpaque(), Self.connectionLimit, Self.timeoutSeconds)
        else {
            box.release()
            throw HTTPServerError(
                description: "cannot listen on \(host):\(port) (is the address one of this machine's, "
                    + "and the port free?)")
        }
        daemon = started
        context = box
        self.port = Int(kiln_mhd_bound_port(started))
    }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let running = daemon else { return }
        daemon = nil
        MHD_stop_daemon(running)
        context.release()
    }

    deinit { stop() }
}

/// The handler, kept alive for MHD's threads by the retained Unmanaged reference.
final class HandlerBox: Sendable {
    let handler: HTTPServer.Handler
    init(_ handler: @escaping HTTPServer.Handler) { self.handler = handler }
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

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return .NO }
    let box = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue()
    let collector = ArgumentCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, .GET_ARGUMENT_KIND, argumentIterator, Unmanaged.passUnretained(collector).toOpaque())
    }
    let host = MHD_lookup_connection_value(connection, .HEADER_KIND, "Host").map { String(cString: $0) }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
        query: collector.arguments, host: host)
    let reply = box.handler(request)
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
    _ = MHD_add_response_header(
        response, "Content-Security-Policy",
        "default-src 'self'; img-src 'self' blob: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
    )
    return MHD_queue_response(connection, UInt32(reply.status), response)
}
