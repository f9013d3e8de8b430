import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// A clock set wrong (`ALBUMKIT_NOW`, which debug builds take in place of the system clock): a save
/// before 1970 works; a deletion recorded in the future counts as now; one recorded before any
/// library existed is not emptied by the 30-day rule; `--days 0` empties everything; a save whose
/// clock is a little behind the last one's is added after it.
@Suite(.onThreadsOfTheirOwn) struct ClockCLITests {
    static func saved(_ tag: String, in dir: URL, _ library: [String], clock: String? = nil) throws -> String {
        let source = dir.appendingPathComponent("\(tag).jpg")
        try Fixture.uniqueJPEG(tag).write(to: source)
        let run = try CLI.run(
            ["save", "--json", source.path] + library, environment: clock.map { ["ALBUMKIT_NOW": $0] } ?? [:])
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(run.jsonLines().first?["asset"] as? String, "\(run.stdout)\n\(run.stderr)")
    }

    @Test func aSaveUnderAClockBefore1970Works() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let id = try Self.saved("old", in: dir, library, clock: "-86400.5")
            #expect(try CLI.run(["verify"] + library).status == 0)
            #expect(try CLI.run(["assets", "-v"] + library).stdout.contains(id))
        }
    }

    /// Photos without a capture date are listed with the time they were added, worked out from
    /// the days since 1970 (not a `DateFormatter` per row): the same text as the formatter's
    /// before 1970, across leap days and after 2100, in a zone with summer time, and from the
    /// formatter itself beyond what the arithmetic covers (after 9999).
    @Test func addedTimesAreListedAsTheClockWas() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let clocks: [Double] = [
                -86_400.5, -1, 0, 951_782_400 + 3_599.9, 1_710_054_000, 4_102_444_800, 4_107_542_399,
                253_402_300_799, 253_402_300_800 + 86_400 * 400,
            ]
            for (index, clock) in clocks.enumerated() {
                // Photos without a capture date: listed with the time they were added.
                let source = dir.appendingPathComponent("clock\(index).jpg")
                try Fixture.tinyJPEG("clock \(index)").write(to: source)
                let run = try CLI.run(["save", source.path] + library, environment: ["ALBUMKIT_NOW": String(clock)])
                #expect(run.status == 0, "\(run.stderr)")
            }
            for zone in ["UTC", "America/New_York"] {
                let listed = try CLI.run(["assets", "--columns", "name,taken"] + library, environment: ["TZ": zone])
                #expect(listed.status == 0, "\(listed.stderr)")
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
                let timeZone = try #require(TimeZone(identifier: zone))
                formatter.timeZone = timeZone
                for (index, clock) in clocks.enumerated() {
                    let date = Date(timeIntervalSince1970: clock)
                    let offset = timeZone.secondsFromGMT(for: date)
                    let shown =
                        offset == 0
                        ? ""
                        : String(
                            format: " %@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
                    let line = listed.stdout.split(separator: "\n").first { $0.hasPrefix("clock\(index).jpg ") }
                    #expect(
                        line?.hasSuffix(formatter.string(from: date) + shown + " (added)") == true,
                        "\(zone), \(clock): \(line ?? "not listed")")
                }
            }
        }
    }

    @Test func deletionTimesFromAWrongClockAreNotBelieved() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let ahead = try Self.saved("ahead", in: dir, library)
            let behind = try Self.saved("behind", in: dir, library)
            // Deleted under a clock ten years ahead, and under one of 1973.
            let future = String(Date().timeIntervalSince1970 + 10 * 365 * 86_400)
            #expect(try CLI.run(["delete-asset", ahead] + library, environment: ["ALBUMKIT_NOW": future]).status == 0)
            #expect(
                try CLI.run(["delete-asset", behind] + library, environment: ["ALBUMKIT_NOW": "100000000"]).status == 0)
            // The 30-day rule empties neither (the one "of 1973" used to go at once).
            let month = try CLI.run(["deleted", "--empty", "--json"] + library)
            #expect(month.stdout.contains("\"removed\":0"), "\(month.stdout)\(month.stderr)")
            // --days 1 under a clock two days on: the future deletion counts as now, so it stays.
            let twoDays = String(Date().timeIntervalSince1970 + 2 * 86_400)
            let day = try CLI.run(
                ["deleted", "--empty", "--days", "1", "--json"] + library, environment: ["ALBUMKIT_NOW": twoDays])
            #expect(day.stdout.contains("\"removed\":0"), "\(day.stdout)\(day.stderr)")
            // --days 0: everything.
            let all = try CLI.run(["deleted", "--empty", "--days", "0", "--json"] + library)
            #expect(all.stdout.contains("\"removed\":2"), "\(all.stdout)\(all.stderr)")
            #expect(try CLI.run(["verify"] + library).status == 0)
        }
    }

    /// A process whose clock read a moment before another's commit (both took the time before
    /// waiting for the journal) adds its photo after that commit's: times added rise with commits.
    /// A time more than a second ahead of the clock (set wrong once) is not followed.
    @Test func aSaveJustBehindTheLastCommitIsAddedAfterIt() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let now = Date().timeIntervalSince1970.rounded(.down)
            let first = try Self.saved("first", in: dir, library, clock: String(now + 0.5))
            let second = try Self.saved("second", in: dir, library, clock: String(now))
            let third = try Self.saved("third", in: dir, library, clock: String(now - 5))
            let far = try Self.saved("far", in: dir, library, clock: String(now + 100))
            let later = try Self.saved("later", in: dir, library, clock: String(now + 1))
            let run = try CLI.run(["assets", "--order", "added", "--json"] + library)
            #expect(run.status == 0, "\(run.stderr)")
            let listed = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)"
            ).compactMap { $0["id"] as? String }
            let ascending = [third, first, second, later, far]
            #expect(listed == ascending || listed == ascending.reversed(), "\(listed) against \(ascending)")
        }
    }
}
