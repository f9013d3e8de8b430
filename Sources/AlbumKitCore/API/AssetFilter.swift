import Foundation

/// Which assets a listing by ``PhotoLibrary/assets(orderedBy:matching:after:limit:)`` returns: photos,
/// videos or both, a range of the order's own date (the date added for ``AssetOrder/dateAdded``, the
/// capture date for ``AssetOrder/captureDate``), and what a photographer looks a photo up by: when it
/// was taken, the camera, the file's format, the place, the album and the file name. Every condition
/// given must hold.
///
/// ```swift
/// let lastWeek = AssetFilter(kinds: [.video], dates: Date().addingTimeInterval(-7 * 86_400)..<Date())
/// let page = try await library.assets(orderedBy: .captureDate, matching: lastWeek, limit: 50)
///
/// var may = AssetFilter(camera: "EOS R6", name: "IMG_*")
/// may.taken = AssetFilter.takenRange(from: "2024-05", to: "2024-05")
/// ```
public struct AssetFilter: Sendable, Hashable {
    /// The kinds listed; `nil` lists every kind.
    public var kinds: Set<MediaKind>?
    /// The dates listed (from the lower bound, before the upper one); `nil` lists every date. A capture
    /// date without a time zone is compared as if it were UTC (as the order by capture date sorts it).
    public var dates: Range<Date>?
    /// The capture dates listed, whatever the order (from the lower bound, before the upper one),
    /// compared as ``dates`` compares them in the order by capture date: the camera's wall-clock time
    /// as if it were UTC; an asset without a capture date by its date added.
    public var taken: Range<Date>?
    /// The container formats listed (``MediaFormat/raw`` and ``MediaFormat/dng`` for camera raws; a
    /// photo kept with its camera raw, RAW+JPEG, counts as ``MediaFormat/raw``); `nil` lists every format.
    public var formats: Set<MediaFormat>?
    /// Text the camera must contain, case aside (``MediaMetadata/camera``: make and model,
    /// `"Canon EOS R6"`); `nil` for any camera, or none.
    public var camera: String?
    /// Where the photo was taken; `nil` for anywhere, or nowhere recorded.
    public var area: GeoArea?
    /// A pattern the original file name must match, case aside: `*` any text, `?` one character,
    /// `[abc]` or `[a-z]` one of them (`[!abc]` none of them).
    public var name: String?
    /// The album (its ``AlbumInfo/id``) whose assets are listed; `nil` for the whole library.
    public var albumID: String?
    /// Text the lens must contain, case aside (``MediaMetadata/lens``: `"RF24-105"`); `nil` for any
    /// lens, or none.
    public var lens: String?
    /// The fewest stars listed (``MediaMetadata/rating``, from XMP `xmp:Rating`): `3` lists photos
    /// of 3, 4 and 5 stars; `nil` for any rating, or none.
    public var rating: Int?
    /// Only Live Photos (``AssetInfo/isLivePhoto``: a photo with its paired video), when `true`.
    public var livePhotos = false

    /// A filter; with no arguments, every asset.
    public init(
        kinds: Set<MediaKind>? = nil, dates: Range<Date>? = nil, taken: Range<Date>? = nil,
        formats: Set<MediaFormat>? = nil, camera: String? = nil, area: GeoArea? = nil, name: String? = nil,
        albumID: String? = nil, lens: String? = nil, rating: Int? = nil, livePhotos: Bool = false
    ) {
        self.kinds = kinds
        self.dates = dates
        self.taken = taken
        self.formats = formats
        self.camera = camera
        self.area = area
        self.name = name
        self.albumID = albumID
        self.lens = lens
        self.rating = rating
        self.livePhotos = livePhotos
    }

    /// Every asset.
    public static let all = AssetFilter()

    /// Photos only.
    public static let photos = AssetFilter(kinds: [.photo])

    /// Videos only.
    public static let videos = AssetFilter(kinds: [.video])

    /// Live Photos only: photos with their paired video.
    public static let livePhotos = AssetFilter(kinds: [.photo], livePhotos: true)

    /// Camera raws only (raw formats and DNG).
    public static let raws = AssetFilter(kinds: [.photo], formats: [.raw, .dng])

    /// Whether the filter lets every asset through.
    package var isEverything: Bool { self == .all }

    /// Whether the filter holds conditions a listing cannot seek by (it reads each asset to judge
    /// them): anything but the kinds, the order's dates and the album.
    package var readsEachAsset: Bool {
        taken != nil || formats != nil || camera != nil || area != nil || name != nil || lens != nil || rating != nil
            || livePhotos
    }

    /// Whether no asset can pass (an empty date range).
    package var isEmpty: Bool { dates?.isEmpty == true || taken?.isEmpty == true }

    /// Whether `asset` passes, judged by its sort key in `order` (so the filter and the order agree);
    /// the album is judged by `albumMembers`, the ids of ``albumID``'s assets (`nil`: not judged here).
    package func matches(_ asset: AssetInfo, in order: AssetOrder, albumMembers: Set<String>? = nil) -> Bool {
        if let kinds, !kinds.contains(asset.kind) { return false }
        if let bounds = keyBounds(in: order) {
            let key = order.sortKey(of: asset)
            guard key >= bounds.lower && key < bounds.upper else { return false }
        }
        if let taken {
            let key = AssetOrder.captureDate.sortKey(of: asset)
            let lower = AssetOrder.captureDate.sortKey(of: taken.lowerBound)
            let upper = AssetOrder.captureDate.sortKey(of: taken.upperBound)
            guard key >= lower && key < upper else { return false }
        }
        if let formats {
            // A photo kept with its camera raw (RAW+JPEG) is a raw too.
            let own = asset.metadata.map { formats.contains($0.format) } ?? false
            let raw = formats.contains(.raw) && asset.companions.contains { $0.role == .raw }
            guard own || raw else { return false }
        }
        if let camera {
            guard let named = asset.metadata?.camera, named.range(of: camera, options: .caseInsensitive) != nil
            else { return false }
        }
        if let lens {
            guard let named = asset.metadata?.lens, named.range(of: lens, options: .caseInsensitive) != nil
            else { return false }
        }
        if let rating {
            guard let stars = asset.metadata?.rating, stars >= rating else { return false }
        }
        if livePhotos && !asset.isLivePhoto { return false }
        if let area {
            guard let location = asset.location, area.contains(location) else { return false }
        }
        if let name {
            guard let original = asset.originalFilename, Self.glob(name, matches: original) else { return false }
        }
        if let albumMembers, !albumMembers.contains(asset.id) { return false }
        return true
    }

    /// The date range as sort keys of `order`: ``dates``, narrowed by ``taken`` in the order by
    /// capture date (where both are the same key).
    package func keyBounds(in order: AssetOrder) -> (lower: String, upper: String)? {
        var bounds = dates.map { (order.sortKey(of: $0.lowerBound), order.sortKey(of: $0.upperBound)) }
        if order == .captureDate, let taken {
            let lower = order.sortKey(of: taken.lowerBound)
            let upper = order.sortKey(of: taken.upperBound)
            bounds = bounds.map { (max($0.0, lower), min($0.1, upper)) } ?? (lower, upper)
        }
        return bounds.map { (lower: $0.0, upper: $0.1) }
    }

    /// The capture dates from the start of `from` to the end of `to`, each written `YYYY`, `YYYY-MM` or
    /// `YYYY-MM-DD` (a year, month or day of the camera's wall clock); either may be `nil` (no bound).
    ///
    /// ```swift
    /// AssetFilter.takenRange(from: "2024-05", to: "2024-05")  // 2024-05-01T00:00:00 ..< 2024-06-01T00:00:00
    /// ```
    /// - Throws: `.invalidArgument` naming a date of another shape, or a range that ends before it starts.
    public static func takenRange(from: String?, to: String?) throws -> Range<Date> {
        let lower = try from.map { try period($0).lowerBound } ?? Date(timeIntervalSince1970: 0)
        // No --to: up to 9999-12-31T23:59:59, the last capture key.
        let upper = try to.map { try period($0).upperBound } ?? Date(timeIntervalSince1970: 253_402_300_799)
        guard lower < upper else {
            throw AlbumError(
                .invalidArgument,
                "The dates end (\(to ?? "")) before they start (\(from ?? "")); give the earlier one first.")
        }
        return lower..<upper
    }

    /// The year, month or day `text` names, as UTC dates (the wall clock the capture keys hold).
    private static func period(_ text: String) throws -> Range<Date> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.map { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
        let widths = [4, 2, 2]
        guard (1...3).contains(parts.count),
            zip(parts, widths).allSatisfy({ $0.count == $1 }), numbers.allSatisfy({ $0 != nil })
        else {
            throw AlbumError(
                .invalidArgument, "\"\(text)\" is not a date; write it YYYY, YYYY-MM or YYYY-MM-DD (2024-05-01).")
        }
        let year = numbers[0]!
        let month = parts.count > 1 ? numbers[1]! : 1
        let day = parts.count > 2 ? numbers[2]! : 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard (1...12).contains(month), (1...31).contains(day), let start = calendar.date(from: components),
            calendar.component(.day, from: start) == day
        else {
            throw AlbumError(
                .invalidArgument, "\"\(text)\" is not a date of the calendar; write it YYYY, YYYY-MM or YYYY-MM-DD.")
        }
        let unit: Calendar.Component = parts.count == 1 ? .year : parts.count == 2 ? .month : .day
        guard let end = calendar.date(byAdding: unit, value: 1, to: start) else {
            throw AlbumError(.invalidArgument, "\"\(text)\" is not a date AlbumKit can list by.")
        }
        return start..<end
    }

    /// Whether `name` matches the shell-style `pattern`, case aside.
    package static func glob(_ pattern: String, matches name: String) -> Bool {
        let pattern = Array(pattern.lowercased())
        let name = Array(name.lowercased())
        // Backtracking over the last `*` only: linear in practice, no recursion.
        var p = 0
        var n = 0
        var star: (p: Int, n: Int)?
        while n < name.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p, n)
                p += 1
                continue
            }
            if p < pattern.count, let width = matchOne(pattern, at: p, name[n]) {
                p += width
                n += 1
                continue
            }
            guard let last = star else { return false }
            p = last.p + 1
            n = last.n + 1
            star = (last.p, last.n + 1)
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// The width of the pattern element at `p` when it matches `character`, else `nil`.
    private static func matchOne(_ pattern: [Character], at p: Int, _ character: Character) -> Int? {
        switch pattern[p] {
        case "?": return 1
        case "[":
            var index = p + 1
            let negated = index < pattern.count && (pattern[index] == "!" || pattern[index] == "^")
            if negated { index += 1 }
            var found = false
            var first = true
            while index < pattern.count, pattern[index] != "]" || first {
                first = false
                if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                    if pattern[index] <= character && character <= pattern[index + 2] { found = true }
                    index += 3
                } else {
                    if pattern[index] == character { found = true }
                    index += 1
                }
            }
            // An unclosed `[` is an ordinary character.
            guard index < pattern.count else { return character == "[" ? 1 : nil }
            return found != negated ? index - p + 1 : nil
        case let literal: return literal == character ? 1 : nil
        }
    }
}
