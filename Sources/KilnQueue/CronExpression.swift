import Foundation

/// A five-field cron expression (minute hour day-of-month month day-of-week) or one of
/// `@hourly`, `@daily`/`@midnight`, `@weekly`, `@monthly`, `@yearly`/`@annually`, evaluated in an
/// IANA time zone with queue.md's rules: a time that falls in a spring-forward gap fires once, at
/// the first valid instant after it; a time in a fall-back overlap fires once, at its first
/// occurrence. As in Vixie cron, when both day fields are restricted a day matches either.
public struct CronExpression: Sendable, Equatable {
    public let text: String
    public let timeZone: TimeZone
    let minutes: Set<Int>
    let hours: Set<Int>
    let days: Set<Int>
    let months: Set<Int>
    let weekdays: Set<Int>
    let daysRestricted: Bool
    let weekdaysRestricted: Bool

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    static let macros = [
        "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
        "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *",
    ]
    static let monthNames = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    public init(_ text: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws(ParseError) {
        self.text = text
        self.timeZone = timeZone
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let expanded: String
        if trimmed.hasPrefix("@") {
            guard let macro = Self.macros[trimmed] else {
                throw ParseError(
                    message:
                        "unknown macro '\(text)' (known: \(Self.macros.keys.sorted().joined(separator: ", ")))"
                )
            }
            expanded = macro
        } else {
            expanded = trimmed
        }
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw ParseError(
                message:
                    "expected five fields (minute hour day-of-month month day-of-week) or a macro, got \(fields.count) in '\(text)'"
            )
        }
        minutes = try Self.field(fields[0], "minute", 0...59, names: [])
        hours = try Self.field(fields[1], "hour", 0...23, names: [])
        days = try Self.field(fields[2], "day-of-month", 1...31, names: [])
        months = try Self.field(fields[3], "month", 1...12, names: Self.monthNames, firstName: 1)
        // 7 is Sunday too.
        weekdays = Set(try Self.field(fields[4], "day-of-week", 0...7, names: Self.dayNames).map { $0 % 7 })
        daysRestricted = !fields[2].hasPrefix("*")
        weekdaysRestricted = !fields[4].hasPrefix("*")
    }

    /// One field: `*`, `*/n`, `a`, `a-b`, `a-b/n`, `a/n` and comma lists of those; names allowed
    /// where the field has them.
    static func field(
        _ text: String, _ name: String, _ range: ClosedRange<Int>, names: [String], firstName: Int = 0
    ) throws(ParseError) -> Set<Int> {
        func value(_ token: Substring) throws(ParseError) -> Int {
            if let number = Int(token), range.contains(number) { return number }
            if let index = names.firstIndex(of: String(token)) { return index + firstName }
            throw ParseError(message: "\(name) '\(token)' is not in \(range.lowerBound)…\(range.upperBound)")
        }
        var result = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { throw ParseError(message: "empty item in \(name) '\(text)'") }
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw ParseError(message: "\(name) '\(part)' has two steps") }
            var step = 1
            if pieces.count == 2 {
                guard let n = Int(pieces[1]), n >= 1, n <= range.upperBound + 1 else {
                    throw ParseError(message: "\(name) step '\(pieces[1])' must be 1…\(range.upperBound + 1)")
                }
                step = n
            }
            let base = pieces[0]
            var low: Int, high: Int
            if base == "*" {
                (low, high) = (range.lowerBound, range.upperBound)
            } else if let dash = base.firstIndex(of: "-") {
                low = try value(base[..<dash])
                high = try value(base[base.index(after: dash)...])
                guard low <= high else { throw ParseError(message: "\(name) range '\(base)' runs backwards") }
            } else {
                low = try value(base)
                high = pieces.count == 2 ? range.upperBound : low
            }
            result.formUnion(stride(from: low, through: high, by: step))
        }
        return result
    }

    /// The first fire strictly after `instant` (wall seconds), or nil if none within eight years
    /// (an expression such as `0 0 31 2 *` never fires).
    public func next(after instant: Double) -> Double? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Work on civil (local wall-clock) time expressed as if it were UTC.
        let start = LocalTime.civil(instant, in: timeZone)
        var day = calendar.startOfDay(for: Date(timeIntervalSince1970: start))
        let sortedHours = hours.sorted(), sortedMinutes = minutes.sorted()
        for _ in 0..<(8 * 366) {
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            if months.contains(c.month!) && dayMatches(day: c.day!, weekday: c.weekday! - 1) {
                for hour in sortedHours {
                    for minute in sortedMinutes {
                        let civil = day.timeIntervalSince1970 + Double(hour * 3600 + minute * 60)
                        let fire = LocalTime.instant(civil: civil, in: timeZone)
                        if fire > instant { return fire }
                    }
                }
            }
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
        return nil
    }

    /// The next `count` fires after `instant`.
    public func fires(after instant: Double, count: Int) -> [Double] {
        var result: [Double] = []
        var t = instant
        while result.count < count, let fire = next(after: t) {
            result.append(fire)
            t = fire
        }
        return result
    }

    private func dayMatches(day: Int, weekday: Int) -> Bool {
        switch (daysRestricted, weekdaysRestricted) {
        case (true, true): return days.contains(day) || weekdays.contains(weekday)
        case (true, false): return days.contains(day)
        case (false, true): return weekdays.contains(weekday)
        case (false, false): return true
        }
    }
}
