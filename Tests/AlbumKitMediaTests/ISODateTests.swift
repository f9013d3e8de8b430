import Foundation
import Testing

@testable import AlbumKitMedia

/// `ISODate.civil(unixSeconds:)` gives the date Foundation's Gregorian calendar gives, before 1970
/// as after it, and `ISODate.string` the same text as before it was built on it.
@Suite struct ISODateTests {
    @Test func civilDatesAreTheGregorianCalendars() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // 1583-01-01 to 9999-12-31, the edges of days and of 1970 among them.
        var instants: [Int64] = [-12_212_553_600, -1, 0, 1, 86_399, 86_400, -86_400, -86_401, 253_402_300_799]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 { instants.append(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator)) }
        for instant in instants {
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(instant)))
            let civil = ISODate.civil(unixSeconds: instant)
            #expect(civil.year == Int64(parts.year!) && civil.month == Int64(parts.month!), "\(instant)")
            #expect(civil.day == Int64(parts.day!), "\(instant)")
            #expect(civil.second == Int64(parts.hour! * 3600 + parts.minute! * 60 + parts.second!), "\(instant)")
        }
        #expect(ISODate.string(unixSeconds: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(ISODate.string(unixSeconds: -1) == nil && ISODate.string(unixSeconds: 253_402_300_800) == nil)
    }
}
