import Foundation

/// An asset as listed by ``PhotoLibrary/assets(inAlbumTitled:)`` and
/// ``PhotoLibrary/assets(orderedBy:matching:after:limit:)``: its name, kind, size in pixels and
/// bytes, duration, and when it was taken and added — the same fields from every library kind.
///
/// ```swift
/// for asset in try await library.assets(inAlbumTitled: "Trips") {
///     print(asset.originalFilename ?? "?", asset.pixelWidth ?? 0, "×", asset.pixelHeight ?? 0, asset.capturedAt ?? asset.addedAt)
/// }
/// ```
public struct AssetInfo: Sendable, Hashable {
    /// The asset's stable identifier.
    public let id: String
    /// The file name the asset had when it was saved (Photos: the original resource's name).
    public let originalFilename: String?
    /// Photo or video.
    public let kind: MediaKind
    /// The size of the original in bytes; `nil` when the library cannot tell it cheaply (Photos).
    public let byteSize: Int64?
    /// When the asset was added (to the album when listed from an album). Photos does not publish
    /// when an asset was added: for Photos this is the asset's creation date (``capturedAt``), and
    /// ``dateAdded`` is `nil`. Use ``dateAdded`` and ``capturedAt`` to tell the two apart.
    public let addedAt: Date
    /// The SHA-256 of the original, hex, when the library records it.
    public let sha256: String?
    /// Where the original is stored, when it is a plain file.
    public let fileURL: URL?
    /// Format and metadata, when known.
    public let metadata: MediaMetadata?
    /// Width in pixels as displayed, when known.
    public let pixelWidth: Int?
    /// Height in pixels as displayed, when known.
    public let pixelHeight: Int?
    /// Duration in seconds (videos), when known.
    public let duration: Double?
    /// When the photo or video was taken: the creation date given when saving, else the capture date
    /// in the file (a date without a time zone read as UTC), else (Photos) the asset's creation date;
    /// `nil` when unknown.
    public let capturedAt: Date?
    /// Where it was taken: the location given when saving, else the GPS position in the file, else
    /// (Photos) the asset's location; `nil` when unknown.
    public let location: GeoLocation?
    /// Whether the asset is a favourite (Photos' heart; given when saving).
    public let isFavorite: Bool
    /// When the asset was added, where the library records it; `nil` for Photos (see ``addedAt``).
    public var dateAdded: Date? { isDateAddedKnown ? addedAt : nil }
    private let isDateAddedKnown: Bool
    /// Who saved it (machine, user, database role), when the library records it (a shared library).
    public var savedBy: SaverIdentity?
    /// The files kept with it (its sidecars, the raw of a RAW+JPEG pair), in the order they were
    /// saved; empty when there are none or the library keeps none.
    public var companions: [AssetCompanion] = []
    /// Whether it is a Live Photo: a photo with its paired video, as Photos keeps them (the other
    /// libraries save a Live Photo's two files as two assets, or refuse it).
    public var isLivePhoto = false
    /// The library folder its original and companions are kept beneath (a catalog library's):
    /// they are read through ``RemovalGate`` (never through a link, never outside that folder).
    package var libraryFolder: URL?

    /// Creates an asset description. Pixel size, duration, capture date and location not given are
    /// taken from `metadata`; `isDateAddedKnown: false` says `addedAt` is a stand-in (Photos).
    ///
    /// ```swift
    /// let info = AssetInfo(id: "1", originalFilename: "IMG_1.JPG", kind: .photo, byteSize: 1024, addedAt: Date())
    /// ```
    public init(
        id: String, originalFilename: String?, kind: MediaKind, byteSize: Int64?, addedAt: Date,
        sha256: String? = nil, fileURL: URL? = nil, metadata: MediaMetadata? = nil, pixelWidth: Int? = nil,
        pixelHeight: Int? = nil, duration: Double? = nil, capturedAt: Date? = nil, location: GeoLocation? = nil,
        isFavorite: Bool = false, isDateAddedKnown: Bool = true, savedBy: SaverIdentity? = nil
    ) {
        self.savedBy = savedBy
        self.id = id
        self.originalFilename = originalFilename
        self.kind = kind
        self.byteSize = byteSize
        self.addedAt = addedAt
        self.sha256 = sha256
        self.fileURL = fileURL
        self.metadata = metadata
        self.pixelWidth = pixelWidth ?? metadata?.width
        self.pixelHeight = pixelHeight ?? metadata?.height
        self.duration = duration ?? metadata?.duration
        self.capturedAt = capturedAt ?? metadata?.captureDate.flatMap(Self.date(fromCaptureDate:))
        self.location =
            location
            ?? metadata.flatMap { metadata in
                guard let latitude = metadata.latitude, let longitude = metadata.longitude else { return nil }
                return GeoLocation(latitude: latitude, longitude: longitude, altitude: metadata.altitude)
            }
        self.isFavorite = isFavorite
        self.isDateAddedKnown = isDateAddedKnown
    }

    /// An ISO 8601 capture date (`2024-05-01T10:20:30`, optionally with fractions and `Z` or
    /// `±HH:MM`) as a date; without a zone, as UTC.
    package static func date(fromCaptureDate text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var rest = bytes[19...]
        var fraction = 0.0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            var scale = 0.1
            while let digit = rest.first, digit >= 0x30, digit <= 0x39 {
                fraction += Double(digit - 0x30) * scale
                scale /= 10
                rest = rest.dropFirst()
            }
        }
        var offset = 0
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let zone = Array(rest.dropFirst())
            guard zone.count >= 2, let hours = Int(String(decoding: zone[0..<2], as: UTF8.self)) else { return nil }
            let minutes = zone.count >= 5 ? Int(String(decoding: zone[3..<5], as: UTF8.self)) ?? 0 : 0
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        // Days since 1970-01-01 in the proleptic Gregorian calendar.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
