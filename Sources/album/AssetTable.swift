import AlbumKit
import Foundation

/// The asset listing of `show` and `assets`, printed a page at a time as the library is read: a
/// table of name, kind, size, when taken, format, camera, GPS and id, the id shortened to its first
/// characters (at least 8, enough to tell the page's rows apart; commands take an id's start), laid
/// out by its first page; or, with `--json`, one JSON array written as it goes. `-v` adds the path
/// (in a shared library: who saved each, `user@host as role`) and prints ids in full;
/// `--columns name,id,path` prints those columns only.
///
/// ```
/// album show Trips                       # NAME KIND SIZE TAKEN FORMAT CAMERA GPS ID (9bca90d2)
/// album show -v Trips                    # … ID (in full) PATH
/// album assets --columns id,path         # two columns, for a script that wants no JSON
/// ```
///
/// ```swift
/// var table = try AssetTable(arguments)
/// table.add(page.assets, more: page.nextCursor != nil)
/// if table.finish() == 0 { Output.out("No photos or videos.") }
/// ```
struct AssetTable {
    /// A column, as `--columns` names it.
    enum Column: String, CaseIterable {
        case name, kind, size, taken, format, camera, gps, id, path
        case savedBy = "saved-by"

        var header: String { self == .savedBy ? "SAVED BY" : rawValue.uppercased() }
    }

    /// The columns `--columns` names, `nil` without it.
    let named: [Column]?
    let verbose: Bool
    private let json: Bool
    /// The columns printed, chosen by the first page.
    private var chosen: [Column] = []
    private var layout: Output.TableLayout?
    private var listed = 0
    // A narrow terminal gets the minute a photo was taken (`2024-05-01 10:20`), not the
    // seconds and offset: with the name, size and id that fits 80 columns.
    private let terminal = FileSystem.terminalColumns(chosen: ProgramEnvironment.columns)
    /// The time zone of the first page's capture dates when they share one (`+02:00`, `Z`): said
    /// once, in the header, and left out of each time in it.
    private var zone: String?

    /// The table the command line asks for; checked before the library is opened.
    ///
    /// - Throws: a usage failure naming a column `--columns` gives that is not one.
    init(_ arguments: Arguments) throws {
        verbose = arguments.verbose
        json = arguments.json
        named = try arguments.value(.columns).map { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { word in
                let name = word.trimmingCharacters(in: .whitespaces).lowercased()
                guard let column = Column(rawValue: name) else {
                    throw AlbumCommand.UsageFailure(
                        message:
                            "--columns takes names from \(Column.allCases.map(\.rawValue).joined(separator: ",")), not '\(name)'"
                    )
                }
                return column
            }
        }
    }

    /// Prints `assets`; `more`: other pages follow (the table keeps every column for them).
    mutating func add(_ assets: [AssetInfo], more: Bool) {
        guard !assets.isEmpty else { return }
        defer { listed += assets.count }
        if json {
            // The array as `Output.json` writes it whole, written an element at a time.
            for (index, asset) in assets.enumerated() {
                // Output types hold strings, integers, dates and finite numbers: encoding cannot fail.
                let encoded = (try? Output.encoder.encode(AssetLine(info: asset))) ?? Data("null".utf8)
                let line = String(decoding: encoded, as: UTF8.self)
                Output.out((listed + index == 0 ? "[" : ",") + line, terminator: "")
            }
            return
        }
        if layout == nil {
            let zones = Set(assets.compactMap { $0.metadata?.captureDate.flatMap { Self.wallClock($0).zone } })
            zone = zones.count == 1 ? zones.first : nil
            let shared = assets.contains { $0.savedBy != nil }
            chosen =
                named ?? [.name, .kind, .size, .taken, .format, .camera, .gps, .id] + (shared ? [.savedBy] : [])
                + (verbose && !shared ? [.path] : [])
        }
        // Ids are shortened page by page: each is told from the others of its page, not from
        // every id listed (that would mean reading the whole listing before its first line).
        let fullIDs = verbose || named != nil
        let ids = fullIDs ? assets.map(\.id) : Self.shortIDs(assets.map(\.id))
        let rows = zip(assets, ids).map { asset, id in row(asset, id: id) }
        if let layout {
            Output.table(rows, header: header, continuing: layout)
            return
        }
        // Left out first when a terminal is too narrow (never what the user asked for by name).
        let dropOrder: [Column] = [.gps, .camera, .format, .kind]
        let droppable = named == nil && !verbose ? dropOrder.compactMap { chosen.firstIndex(of: $0) } : []
        layout = Output.table(
            rows, header: header, rightAligned: Set(chosen.indices.filter { chosen[$0] == .size }),
            droppable: droppable, columns: terminal, more: more)
    }

    /// The column headers, the capture dates' zone in TAKEN's when they share one.
    private var header: [String] {
        chosen.map { $0 == .taken && zone != nil ? "TAKEN (\(zone == "Z" ? "UTC" : zone!))" : $0.header }
    }

    /// A capture date (`2024-05-01T10:20:30.5+02:00`) as the time the camera showed, to the second
    /// (`2024-05-01 10:20:30`), and its zone when it has one.
    static func wallClock(_ captureDate: String) -> (time: String, zone: String?) {
        let time = String(captureDate.prefix(19)).replacingOccurrences(of: "T", with: " ")
        var rest = captureDate.dropFirst(19)
        if rest.first == "." { rest = rest.drop { $0 == "." || $0.isNumber } }
        return (time, rest.isEmpty ? nil : String(rest))
    }

    /// Ends the listing (closes the JSON array); returns how many assets it listed.
    func finish() -> Int {
        if json { Output.out(listed == 0 ? "[]" : "]") }
        return listed
    }

    private func row(_ asset: AssetInfo, id: String) -> [String] {
        let taken: (String) -> String = { (terminal ?? .max) < 100 ? String($0.prefix(16)) : $0 }
        let m = asset.metadata
        var details: [String] = [m?.format.rawValue ?? asset.kind.rawValue]
        if let w = m?.width, let h = m?.height { details.append("\(w)×\(h)") }
        if let d = m?.duration { details.append(String(format: "%.1f s", d)) }
        var gps = ""
        if let lat = m?.latitude, let lon = m?.longitude { gps = String(format: "%.5f, %.5f", lat, lon) }
        let cells: [Column: String] = [
            .name: asset.originalFilename ?? "-", .kind: asset.kind.rawValue,
            .size: asset.byteSize.map(Output.size) ?? "?",
            .taken: m?.captureDate.map { date in
                let (time, own) = Self.wallClock(date)
                return taken(time) + (own != nil && own != zone ? " " + own! : "")
            } ?? addedTime(asset.addedAt),
            .format: details.joined(separator: " "), .camera: m?.camera ?? "", .gps: gps, .id: id,
            .path: asset.fileURL?.path ?? "", .savedBy: asset.savedBy?.description ?? "",
        ]
        return chosen.map { cells[$0] ?? "" }
    }

    /// When an asset without a capture date was added, in the header's zone (else this computer's),
    /// in the style of the capture dates.
    private func addedTime(_ date: Date) -> String {
        var shownZone = ""
        let timeZone: TimeZone
        let offset: Int
        if let zone, let seconds = Self.seconds(ofZone: zone), let fixed = TimeZone(secondsFromGMT: seconds) {
            timeZone = fixed
            offset = seconds
        } else {
            timeZone = TimeZone.current
            offset = TimeZone.current.secondsFromGMT(for: date)
            shownZone = zone == nil && offset == 0 ? "" : " " + Self.zone(seconds: offset)
        }
        let text = Self.wallClockText(of: date, offset: offset) ?? Self.formattedByFoundation(date, in: timeZone)
        return ((terminal ?? .max) < 100 ? String(text.prefix(16)) : text + shownZone) + " (added)"
    }

    /// `date` as `yyyy-MM-dd HH:mm:ss` at `offset` seconds east of UTC, worked out from the days
    /// since 1970 (``ISODate/civil(unixSeconds:)``): formatting each row with a `DateFormatter`
    /// took ~4 µs, a tenth of a long listing's time. `nil` before 1583 (where the formatter's
    /// calendar is the Julian one) and after 9999 (where its years grow wider), which the formatter
    /// writes instead.
    static func wallClockText(of date: Date, offset: Int) -> String? {
        let instant = date.timeIntervalSince1970.rounded(.down)
        // 1583 and 10000 are within ±2.6e11 s of 1970: anything farther (or not a number) is neither.
        guard instant.isFinite, abs(instant) < 3e11 else { return nil }
        let (year, month, day, second) = ISODate.civil(unixSeconds: Int64(instant) + Int64(offset))
        guard (1583...9999).contains(year) else { return nil }
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return two(year / 100) + two(year % 100) + "-" + two(month) + "-" + two(day) + " " + two(second / 3600) + ":"
            + two(second % 3600 / 60) + ":" + two(second % 60)
    }

    /// `date` by a `DateFormatter` in `zone`, for the dates ``wallClockText(of:offset:)`` leaves
    /// out (making one costs ~150 µs: only such rare rows pay it).
    private static func formattedByFoundation(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.timeZone = zone
        return formatter.string(from: date)
    }

    /// `+02:00` as seconds east of UTC (`Z`: 0).
    private static func seconds(ofZone zone: String) -> Int? {
        if zone == "Z" { return 0 }
        let bytes = Array(zone.utf8)
        guard bytes.count == 6, let hours = Int(String(zone.dropFirst().prefix(2))),
            let minutes = Int(String(zone.suffix(2)))
        else { return nil }
        return (hours * 3600 + minutes * 60) * (bytes[0] == UInt8(ascii: "-") ? -1 : 1)
    }

    /// Seconds east of UTC as `+02:00`.
    private static func zone(seconds: Int) -> String {
        let two: (Int) -> String = { $0 < 10 ? "0\($0)" : "\($0)" }
        return (seconds < 0 ? "-" : "+") + two(abs(seconds) / 3600) + ":" + two(abs(seconds) % 3600 / 60)
    }

    /// Each id cut to its first 8 characters, or more where two listed ids start alike; ids that do
    /// not start with 8 hexadecimal digits (a folder library's `album/file` ids) stay whole.
    static func shortIDs(_ ids: [String]) -> [String] {
        // An id shares its longest start with a neighbour in sorted order: one more character than
        // that tells it from every other.
        let sorted = Array(Set(ids)).sorted()
        func common(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var needed: [String: Int] = [:]
        for (index, id) in sorted.enumerated() {
            let before = index > 0 ? common(sorted[index - 1], id) : 0
            let after = index + 1 < sorted.count ? common(sorted[index + 1], id) : 0
            needed[id] = max(8, max(before, after) + 1)
        }
        return ids.map { id in
            guard id.count > 12, id.prefix(8).allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return id }
            return String(id.prefix(needed[id] ?? id.count))
        }
    }
}
