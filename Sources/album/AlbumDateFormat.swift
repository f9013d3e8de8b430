import AlbumKit
import Foundation

/// `--album-by-date FORMAT`: the album title a file goes into, from its capture date (the wall-clock
/// time the camera wrote, not converted), else its modification time (local time). strftime-style:
/// `%Y` year, `%m` month (01–12), `%d` day, `%B` month name, `%b` its first three letters, `%H` hour,
/// `%M` minute, `%%` a percent sign; `/` nests albums (folders in a folder library).
///
/// ```swift
/// let format = try AlbumDateFormat("%Y/%m %B")
/// format.title(for: .init(year: 2024, month: 5, day: 1, hour: 10, minute: 20))   // "2024/05 May"
/// ```
struct AlbumDateFormat {
    /// A date as a calendar shows it, in the time zone it was taken in.
    struct Moment: Hashable {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
    }

    private enum Piece {
        case text(String)
        case field(Character)
    }

    private let pieces: [Piece]
    private static let fields: Set<Character> = ["Y", "m", "d", "B", "b", "H", "M"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// Parses `format`, given as `option`; refuses an empty one, an unknown `%` field and one that
    /// gives an empty title (or an empty level between two `/`).
    init(_ format: String, option: String = "--album-by-date") throws(AlbumCommand.UsageFailure) {
        guard !format.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AlbumCommand.UsageFailure(message: "\(option) needs a FORMAT, such as %Y/%m or \"%Y-%m-%d\"")
        }
        var pieces: [Piece] = []
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                pieces.append(.text(String(character)))
                continue
            }
            guard let field = characters.next() else {
                throw AlbumCommand.UsageFailure(
                    message: "\(option) \(format): a % at the end; write %% for a percent sign")
            }
            if field == "%" {
                pieces.append(.text("%"))
            } else if Self.fields.contains(field) {
                pieces.append(.field(field))
            } else {
                throw AlbumCommand.UsageFailure(
                    message: "\(option) \(format): %\(field) is not known; use %Y %m %d %B %b %H %M or %%")
            }
        }
        self.pieces = pieces
        let sample = title(for: Moment(year: 2024, month: 5, day: 1, hour: 10, minute: 20))
        let levels = sample.split(separator: "/", omittingEmptySubsequences: false)
        if levels.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw AlbumCommand.UsageFailure(
                message:
                    "\(option) \(format) gives the album title \"\(sample)\", with an empty name; every level between / needs one"
            )
        }
    }

    /// The title for `moment`.
    func title(for moment: Moment) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var title = ""
        for piece in pieces {
            switch piece {
            case .text(let text): title += text
            case .field("Y"):
                title += String(repeating: "0", count: max(0, 4 - "\(moment.year)".count)) + "\(moment.year)"
            case .field("m"): title += two(moment.month)
            case .field("d"): title += two(moment.day)
            case .field("B"): title += Self.months[moment.month - 1]
            case .field("b"): title += String(Self.months[moment.month - 1].prefix(3))
            case .field("H"): title += two(moment.hour)
            case .field(_): title += two(moment.minute)
            }
        }
        return title
    }

    /// The moment a file was taken: its capture date as written (`2024-05-01T10:20:30+02:00` is
    /// 10:20 on 1 May, whatever the offset), else `modified` in local time; `nil` without either.
    static func moment(captureDate: String?, modified: Date?) -> Moment? {
        if let text = captureDate, let moment = moment(written: text) { return moment }
        guard let modified else { return nil }
        let parts = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone.current, from: modified)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return Moment(year: year, month: month, day: day, hour: parts.hour ?? 0, minute: parts.minute ?? 0)
    }

    /// `YYYY-MM-DD[Thh:mm…]` read as written.
    private static func moment(written text: String) -> Moment? {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var value = 0
            for byte in digits[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        let hour = number(11..<13).flatMap { (0...23).contains($0) ? $0 : nil } ?? 0
        let minute = number(14..<16).flatMap { (0...59).contains($0) ? $0 : nil } ?? 0
        return Moment(year: year, month: month, day: day, hour: hour, minute: minute)
    }
}
