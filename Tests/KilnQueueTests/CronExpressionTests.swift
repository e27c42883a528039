import Foundation
import KilnQueue
import XCTest

/// Next-fire computation for a table of expressions in UTC and two DST zones.
final class CronExpressionTests: XCTestCase {
    static let utc = TimeZone(identifier: "UTC")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// "2026-03-08 01:50" read in `zone`, as wall seconds.
    func t(_ text: String, _ zone: TimeZone = utc) -> Double {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!.timeIntervalSince1970
    }

    /// Fires rendered as UTC ISO 8601 for readable failures.
    func iso(_ seconds: [Double]) -> [String] {
        let formatter = ISO8601DateFormatter()
        return seconds.map { formatter.string(from: Date(timeIntervalSince1970: $0)) }
    }

    func fires(_ expression: String, _ zone: TimeZone = utc, after: String, count: Int = 4) throws -> [String]
    {
        iso(try CronExpression(expression, timeZone: zone).fires(after: t(after, zone), count: count))
    }

    func testTableInUTC() throws {
        XCTAssertEqual(
            try fires("*/15 * * * *", after: "2026-12-01 09:07"),
            ["2026-12-01T09:15:00Z", "2026-12-01T09:30:00Z", "2026-12-01T09:45:00Z", "2026-12-01T10:00:00Z"])
        XCTAssertEqual(
            try fires("0 9-11 * * *", after: "2026-12-01 10:00", count: 3),
            ["2026-12-01T11:00:00Z", "2026-12-02T09:00:00Z", "2026-12-02T10:00:00Z"])
        XCTAssertEqual(
            try fires("5,35 1 * * *", after: "2026-12-01 01:05", count: 3),
            ["2026-12-01T01:35:00Z", "2026-12-02T01:05:00Z", "2026-12-02T01:35:00Z"])
        XCTAssertEqual(
            try fires("@daily", after: "2026-12-31 23:59", count: 2),
            ["2027-01-01T00:00:00Z", "2027-01-02T00:00:00Z"])
        XCTAssertEqual(try fires("@hourly", after: "2026-12-01 09:00", count: 1), ["2026-12-01T10:00:00Z"])
        // 2026-12-06 is a Sunday.
        XCTAssertEqual(try fires("@weekly", after: "2026-12-01 00:00", count: 1), ["2026-12-06T00:00:00Z"])
        XCTAssertEqual(try fires("@monthly", after: "2026-12-15 00:00", count: 1), ["2027-01-01T00:00:00Z"])
        // Day-of-month and day-of-week both restricted: either matches (the 13th, or any Friday).
        XCTAssertEqual(
            try fires("0 12 13 * fri", after: "2026-11-01 00:00", count: 4),
            ["2026-11-06T12:00:00Z", "2026-11-13T12:00:00Z", "2026-11-20T12:00:00Z", "2026-11-27T12:00:00Z"])
        // Only day-of-week restricted: Mondays and Wednesdays, 7 = Sunday.
        XCTAssertEqual(
            try fires("30 8 * * 1,3,7", after: "2026-12-01 00:00", count: 3),
            ["2026-12-02T08:30:00Z", "2026-12-06T08:30:00Z", "2026-12-07T08:30:00Z"])
        XCTAssertEqual(
            try fires("0 0 29 feb *", after: "2026-03-01 00:00", count: 1), ["2028-02-29T00:00:00Z"])
        XCTAssertEqual(
            try fires("0 6-18/6 * jan-mar mon-fri", after: "2027-01-01 07:00", count: 3),
            ["2027-01-01T12:00:00Z", "2027-01-01T18:00:00Z", "2027-01-04T06:00:00Z"])
        XCTAssertNil(try CronExpression("0 0 31 2 *").next(after: 0), "February 31st never comes")
    }

    func testBadExpressionsSayWhy() {
        for (text, expected) in [
            ("* * * *", "expected five fields"), ("60 * * * *", "minute '60' is not in 0…59"),
            ("* * * * 8", "day-of-week '8'"), ("*/0 * * * *", "step '0'"), ("5-1 * * * *", "runs backwards"),
            ("@often", "unknown macro"), ("1,,2 * * * *", "empty item"), ("* * * foo *", "month 'foo'"),
        ] {
            XCTAssertThrowsError(try CronExpression(text), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    func testSpringForwardGapFiresOnceAtTheFirstValidInstant() throws {
        // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT.
        XCTAssertEqual(
            try fires("30 2 * * *", Self.newYork, after: "2026-03-07 12:00", count: 3),
            ["2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"])
        // Every 15 minutes across the gap: 01:45 EST, then one fire at 03:00 EDT, then 03:15.
        XCTAssertEqual(
            try fires("*/15 * * * *", Self.newYork, after: "2026-03-08 01:40", count: 3),
            ["2026-03-08T06:45:00Z", "2026-03-08T07:00:00Z", "2026-03-08T07:15:00Z"])
        // Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST.
        XCTAssertEqual(
            try fires("15 2 * * *", Self.berlin, after: "2026-03-28 12:00", count: 2),
            ["2026-03-29T01:00:00Z", "2026-03-30T00:15:00Z"])
    }

    func testFallBackOverlapFiresOnceAtTheFirstOccurrence() throws {
        // New York, 2026-11-01: 02:00 EDT falls back to 01:00 EST; 01:30 happens twice.
        XCTAssertEqual(
            try fires("30 1 * * *", Self.newYork, after: "2026-10-31 12:00", count: 2),
            ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
        // Hourly through the repeated hour: 01:00 EDT once, then 02:00 EST (no second 01:00).
        XCTAssertEqual(
            try fires("0 * * * *", Self.newYork, after: "2026-11-01 00:30", count: 3),
            ["2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z"])
        // Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET.
        XCTAssertEqual(
            try fires("30 2 * * *", Self.berlin, after: "2026-10-24 12:00", count: 2),
            ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"])
        // Starting inside the second occurrence does not fire the first one again.
        let secondOccurrence = t("2026-11-01 06:10")  // 01:10 EST
        XCTAssertEqual(
            iso(
                try CronExpression("30 1 * * *", timeZone: Self.newYork).fires(
                    after: secondOccurrence, count: 1)),
            ["2026-11-02T06:30:00Z"])
    }
}
