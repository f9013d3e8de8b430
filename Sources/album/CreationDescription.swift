import AlbumKit
import Foundation

/// What `album save --date DATE --location LAT,LON --favorite` records with each file saved
/// (``Media/with(creationDate:location:isFavorite:movesFile:)``), checked before anything is read.
///
/// ```
/// album save --date "2024-05-01 10:20" --location 64.1466,-21.9426 --favorite IMG_1.JPG
/// ```
struct CreationDescription {
    var date: Date?
    var location: GeoLocation?
    var isFavorite: Bool?

    /// - Throws: a usage failure naming the value that is not a date or a location.
    init(_ arguments: Arguments) throws {
        if let text = arguments.value(.date) {
            guard let date = Self.date(text) else {
                throw AlbumCommand.UsageFailure(
                    message:
                        "--date takes a date like 2024-05-01T10:20:30+02:00, 2024-05-01 10:20 or 2024-05-01, not '\(text)'"
                )
            }
            self.date = date
        }
        if let text = arguments.value(.location) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], abs(latitude) <= 90,
                abs(longitude) <= 180
            else {
                throw AlbumCommand.UsageFailure(
                    message:
                        "--location takes LATITUDE,LONGITUDE in decimal degrees (64.1466,-21.9426), not '\(text)'")
            }
            location = GeoLocation(latitude: latitude, longitude: longitude)
        }
        if arguments.has(.favorite) { isFavorite = true }
    }

    func apply(to media: Media) -> Media {
        media.with(creationDate: date, location: location, isFavorite: isFavorite)
    }

    /// `2024-05-01T10:20:30+02:00` (or `Z`) as that instant; without an offset (`T` or a space
    /// between date and time, seconds optional, or a date alone) as local time on this computer.
    static func date(_ text: String) -> Date? {
        if let instant = ISO8601DateFormatter().date(from: text) { return instant }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        for format in [
            "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
        ] {
            local.dateFormat = format
            if let date = local.date(from: text), local.string(from: date) == text { return date }
        }
        return nil
    }
}
