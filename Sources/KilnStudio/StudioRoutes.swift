import Foundation
import KilnMedia
import KilnModel

/// The studio's endpoints: the page, the job's summary, frames and the value at a path. Inputs
/// come from a browser, so every one is bounded before it reaches the renderer.
public struct StudioRoutes: Sendable {
    public static let maximumVariables = 64
    public static let maximumPins = 16
    public static let maximumValueBytes = 4096
    public static let scales: ClosedRange<Double> = 0.05...1

    let session: StudioSession
    let access: StudioAccess

    public init(session: StudioSession, access: StudioAccess) {
        self.session = session
        self.access = access
    }

    /// The endpoints that change the job file: POST only, so a link or an image (a GET) can never
    /// save, and a browser always says which page sent a POST (Origin), which `access` checks.
    static let writing: Set<String> = ["/save", "/undo"]

    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        let writes = Self.writing.contains(request.path)
        guard writes ? request.method == "POST" : (request.method == "GET" || request.method == "HEAD") else {
            return .text(
                writes ? "\(request.path) answers only POST" : "the studio only answers GET", status: 405)
        }
        if let refusal = access.refusal(request) { return refusal }
        switch request.path {
        case "/save": return save(request.query)
        case "/undo": return answer { () throws(StudioSession.Problem) in try session.undo() }
        case "/":
            return HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(StudioPage.html.utf8))
        case "/job": return .json(session.summary())
        case "/frame": return frame(request.query)
        case "/value":
            do {
                return .json(["value": try session.number(at: request.query["path"] ?? "")])
            } catch {
                return .json(["problem": error.description], status: 422)
            }
        default: return .text("not found", status: 404)
        }
    }

    /// `version=N&confirm=0|1&var.NAME=VALUE&pin.PATH=NUMBER`: without confirm, only the diff.
    func save(_ query: [String: String]) -> HTTPResponse {
        let values: TunedValues
        do {
            values = try Self.tunedValues(query)
        } catch {
            return .json(["problem": error.description], status: 400)
        }
        guard let version = Int(query["version"] ?? "") else {
            return .json(["problem": "version must be the job version the page shows"], status: 400)
        }
        let request = StudioSession.SaveRequest(
            values: values, version: version, confirm: query["confirm"] == "1")
        return answer { () throws(StudioSession.Problem) in try session.save(request) }
    }

    func answer(_ work: () throws(StudioSession.Problem) -> StudioSession.SaveAnswer) -> HTTPResponse {
        do {
            return .json(try work().json)
        } catch {
            return .json(
                ["problem": error.description], status: error.conflict ? 409 : error.busy ? 503 : 422)
        }
    }

    func frame(_ query: [String: String]) -> HTTPResponse {
        let frameRequest: StudioSession.FrameRequest
        do {
            frameRequest = try Self.frameRequest(query)
        } catch {
            return .text(error.description, status: 400)
        }
        do {
            let bytes = try session.frame(frameRequest)
            return HTTPResponse(
                contentType: frameRequest.format == .png ? "image/png" : "image/jpeg", body: bytes)
        } catch {
            // Busy: the page asks again with its next move. Otherwise the job refuses these
            // values: the page shows why and keeps its last frame.
            return .text(error.description, status: error.busy ? 503 : 422)
        }
    }

    /// `t=SECONDS&scale=F&format=png|jpeg&var.NAME=VALUE&pin.PATH=NUMBER`.
    static func frameRequest(_ query: [String: String]) throws(StudioSession.Problem)
        -> StudioSession.FrameRequest
    {
        guard let seconds = Double(query["t"] ?? "0"), seconds.isFinite, seconds >= 0 else {
            throw .init(description: "t must be a time in seconds, 0 or more")
        }
        guard let scale = Double(query["scale"] ?? "1"), scale.isFinite, scales.contains(scale) else {
            throw .init(description: "scale must be within 0.05…1")
        }
        let format: ImageFormat
        switch query["format"] ?? "png" {
        case "png": format = .png
        case "jpeg": format = .jpeg
        default: throw .init(description: "format must be png or jpeg")
        }
        let values = try tunedValues(query)
        return StudioSession.FrameRequest(
            seconds: seconds, scale: scale, variables: values.variables, pins: values.pins, format: format)
    }

    /// The `var.NAME` and `pin.PATH` arguments, bounded.
    static func tunedValues(_ query: [String: String]) throws(StudioSession.Problem) -> TunedValues {
        var variables: [String: String] = [:]
        var pins: [String: Double] = [:]
        for (key, value) in query {
            guard value.utf8.count <= maximumValueBytes else {
                throw .init(description: "\(key): at most \(maximumValueBytes) bytes")
            }
            if key.hasPrefix("var.") {
                variables[String(key.dropFirst(4))] = value
            } else if key.hasPrefix("pin.") {
                guard let number = Double(value), number.isFinite else {
                    throw .init(description: "\(key.dropFirst(4)): a pinned value must be a finite number")
                }
                pins[String(key.dropFirst(4))] = number
            }
        }
        guard variables.count <= maximumVariables, pins.count <= maximumPins else {
            throw .init(description: "at most \(maximumVariables) variables and \(maximumPins) pins")
        }
        return TunedValues(variables: variables, pins: pins)
    }
}
