/// Converts QuickTime/MP4 timestamps (seconds since 1904-01-01 UTC) to ISO 8601 text.
package enum ISODate {
    /// Seconds between 1904-01-01 and 1970-01-01.
    static let epoch1904: UInt64 = 2_082_844_800

    /// `2024-05-01T10:20:30Z`; `nil` for 0 (unset) and for dates before 1970 or after 9999.
    static func string(secondsSince1904 seconds: UInt64) -> String? {
        guard seconds > epoch1904, seconds - epoch1904 < 253_402_300_800 else { return nil }
        return string(unixSeconds: Int64(seconds - epoch1904))
    }

    /// `2024-05-01T10:20:30Z` for seconds since 1970-01-01 UTC; `nil` before 1970 or after 9999.
    package static func string(unixSeconds unix: Int64) -> String? {
        guard unix >= 0, unix < 253_402_300_800 else { return nil }
        let (year, month, day, secondOfDay) = civil(unixSeconds: unix)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// The date on the Gregorian calendar (extended before its start in 1582) and the second of
    /// the day of `unix` seconds since 1970-01-01 UTC, before 1970 too; `unix` within ±10^15 (30
    /// million years) either side.
    ///
    /// ```swift
    /// ISODate.civil(unixSeconds: -1)   // (1969, 12, 31, 86_399)
    /// ```
    package static func civil(unixSeconds unix: Int64) -> (year: Int64, month: Int64, day: Int64, second: Int64) {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        // Civil-from-days (Howard Hinnant's algorithm): 400-year cycles of 146 097 days that start
        // on 1 March of year 0, so that a leap day ends its year.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, unix - days * 86_400)
    }
}
