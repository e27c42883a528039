import Foundation

/// What `{…}` in `output.path` expands to: `{job}` (the job file's name without extension),
/// `{date}` (YYYY-MM-DD) and `{time}` (HHMMSS) of the render or of a schedule's fire time, any
/// extra names (`{schedule}`), and the job's variables. Substituted values cannot leave the
/// directory the job names: `/` becomes `-` and leading dots are dropped.
public struct OutputTemplate: Sendable {
    public var date: Date
    public var timeZone: TimeZone
    public var extra: [String: String]

    public init(date: Date = Date(), timeZone: TimeZone = .current, extra: [String: String] = [:]) {
        self.date = date
        self.timeZone = timeZone
        self.extra = extra
    }

    func values(jobFile: String, variables: [String: String]) -> [String: String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        var values = variables
        values["job"] = URL(fileURLWithPath: jobFile).deletingPathExtension().lastPathComponent
        values["date"] = String(format: "%04d", c.year ?? 0) + "-" + two(c.month) + "-" + two(c.day)
        values["time"] = two(c.hour) + two(c.minute) + two(c.second)
        values.merge(extra) { $1 }
        return values.mapValues(Self.safeComponent)
    }

    static func safeComponent(_ value: String) -> String {
        var text = value.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "\0", with: "")
        while text.hasPrefix(".") { text.removeFirst() }
        return text.isEmpty ? "_" : text
    }
}
