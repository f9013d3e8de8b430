import AlbumKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing results: text for people, JSON for scripts, errors on stderr. Every line written clears
/// the progress line first, so the two never mix.
enum Output {
    static func out(_ line: String, terminator: String = "\n") {
        ProgressLine.shared.clearForOutput(toTerminal: isStdoutTerminal)
        guard write(line + terminator, to: STDOUT_FILENO) else {
            // stdout is gone or full (`> /dev/full`, a closed pipe): say so once, with what a batch
            // had saved by then, and stop (what was saved stays saved, as after Ctrl-C).
            let cause = String(cString: strerror(errno))
            let progress = stopNote.withLock { $0 }?() ?? ""
            _ = write("album: cannot write the output: \(cause)\(progress)\n", to: STDERR_FILENO)
            exit(1)
        }
    }

    /// What a command had done when its output failed (`; 128 of 3000 saved, …`), for that message.
    static let stopNote = Locked<(@Sendable () -> String)?>(nil)

    static func err(_ line: String) {
        ProgressLine.shared.clearForOutput(toTerminal: true)
        _ = write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr as it is (the progress line draws itself with it).
    static func rawErr(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text` to `fd`; `false` on any error.
    private static func write(_ text: String, to fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { posixWrite(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func json(_ value: some Encodable) {
        // Output types hold strings, integers, dates and finite numbers (metadata drops others): cannot fail.
        out(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self))
    }

    /// Whether standard error is a terminal (the progress line is drawn only then). Asked once: a
    /// `TCGETS` per printed line was one system call per saved file.
    static let isTerminal = isatty(STDERR_FILENO) == 1
    static let isStdoutTerminal = isatty(STDOUT_FILENO) == 1

    /// `text` for a terminal or a line-by-line reader: control characters (a newline or an escape
    /// sequence in a file name) and the bidirectional overrides that reorder what a terminal shows
    /// are written as escapes (`\n`, `\t`, `\x1B`, `\u{202E}`; direction marks and line separators too);
    /// `--json` gives them exactly.
    static func shown(_ text: String) -> String {
        func isHidden(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) || (0x200E...0x200F).contains(scalar.value)
                || scalar.value == 0x061C || (0x2028...0x2029).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case _ where scalar.value < 0x100 && isHidden(scalar):
                shown += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            case _ where isHidden(scalar): shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Rows in aligned columns under a header; columns empty in every row are left out.
    /// Prints `rows` under `header`, columns padded to their widest cell; empty columns are left
    /// out. On a terminal narrower than the table, the columns of `droppable` go, first first,
    /// until it fits, and a note on stderr names them (a pipe or `--json` gets every column).
    ///
    /// A long listing printed as it is read passes its rows a page at a time: the first page
    /// (`more`: others follow) lays the table out and keeps every column, as a later row may fill
    /// one; the returned layout prints the next pages (`continuing`) under the same header, a cell
    /// wider than its column pushing the rest of its row.
    @discardableResult
    static func table(
        _ rows: [[String]], header: [String], rightAligned: Set<Int> = [], droppable: [Int] = [],
        columns terminal: Int? = FileSystem.terminalColumns(chosen: ProgramEnvironment.columns), more: Bool = false,
        continuing: TableLayout? = nil
    ) -> TableLayout {
        let rows = rows.map { $0.map(shown) }
        if let continuing {
            outLines(rows.map(continuing.line))
            return continuing
        }
        var columns = header.indices.filter { column in more || rows.contains { !$0[column].isEmpty } }
        func width(_ column: Int) -> Int { ([header] + rows).map { $0[column].count }.max() ?? 0 }
        var dropped: [String] = []
        if let terminal {
            func total() -> Int { columns.reduce(0) { $0 + width($1) } + 2 * max(0, columns.count - 1) }
            for column in droppable where total() > terminal && columns.contains(column) {
                columns.removeAll { $0 == column }
                dropped.append(header[column])
            }
        }
        let layout = TableLayout(columns: columns, widths: columns.map(width), rightAligned: rightAligned)
        defer {
            if !dropped.isEmpty {
                let names = dropped.joined(separator: ", ")
                err("album: \(names) left out to fit \(terminal ?? 0) columns; --json shows every field")
            }
        }
        outLines(([header] + rows).map(layout.line))
        return layout
    }

    /// Writes `lines` in one write, not one each: a listing of a million lines made a million
    /// system calls.
    private static func outLines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines { text += line + "\n" }
        out(text, terminator: "")
    }

    /// The columns a table shows and their widths.
    struct TableLayout {
        let columns: [Int]
        let widths: [Int]
        let rightAligned: Set<Int>

        /// `row` (cells already ``Output/shown(_:)``) padded to the columns.
        func line(_ row: [String]) -> String {
            let cells = zip(columns, widths).map { column, width in
                let cell = row[column]
                let padding = String(repeating: " ", count: max(0, width - cell.count))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            // Concatenated, not `joined(separator:)`: the standard library's generic join looks a
            // type up by name at its first use, a scan of every conformance record in the binary.
            var line = ""
            for index in cells.indices { line += (index == 0 ? "" : "  ") + cells[index] }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// `1.2 MB`, `340 KB`, `12 B` (decimal units, as file managers show them).
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}

/// `album save` / `import` `--json` lines: the result object of Docs/cli-json.md.
extension Output {
    /// `text` as one shell word: as is when it holds only characters no shell treats specially,
    /// else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || Array("_./:=@%+-,".utf8).contains(byte)
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

struct SaveLine: Encodable {
    struct Failure: Encodable {
        let code: String
        let message: String
        var suggestion: String?

        init(code: String, message: String, suggestion: String? = nil) {
            self.code = code
            self.message = message
            self.suggestion = suggestion
        }

        init(_ error: AlbumError) { self.init(code: error.code.rawValue, message: error.message) }
    }
    let file: String
    /// The path's exact bytes, base64, when they are not valid UTF-8 (`file` then shows U+FFFD).
    var fileBytes: String?
    var asset: String?
    var album: String?
    var albumOutcome: String?
    var existing: Bool?
    var restored: Bool?
    /// `--move`: the source file was removed (its copy read back identical).
    var moved: Bool?
    var error: Failure?
    var skipped: String?
    var wouldSave: Bool?
    var kind: String?
    var format: String?
    /// The files saved with it (sidecars, the raw of a pair), by their paths.
    var companions: [String]?
    /// Those of them the library has no place for (Photos: an `.xmp`).
    var companionsLeftOut: [String]?
    /// A photo the library already held: those of them added to it, or put in place of its
    /// earlier version of that file (a dry run: those it would add or replace).
    var companionsUpdated: [String]?
}

/// The album object of Docs/cli-json.md (`albums`, `create`, `rename`, `delete`).
struct AlbumLine: Encodable {
    let id: String
    let title: String
    let count: Int
    var previousTitle: String?
    var deleted: Bool?
    /// `delete` in a folder library: where the folder went in the Trash.
    var trash: String?
    /// `delete` in a folder library: the albums inside it that went with it.
    var albums: [AlbumLine]?
    /// `albums`: the bytes of its originals, and when its first and last photos were taken.
    var size: Int64?
    var firstTaken: String?
    var lastTaken: String?

    init(_ info: AlbumInfo) {
        id = info.id
        title = info.title
        count = info.count
    }
}

/// `album show --json` entries: the asset plus its media metadata keys.
struct AssetLine: Encodable {
    let info: AssetInfo

    private enum Keys: String, CodingKey {
        case id, file, path, kind, size, added, sha256, savedBy, favorite, companions
    }

    /// A file kept with the asset, as `companions` lists it.
    private struct CompanionLine: Encodable {
        let role: String
        let file: String
        var path: String?
        var size: Int64?
        var sha256: String?
    }

    func encode(to encoder: any Encoder) throws {
        if let metadata = info.metadata { try metadata.encode(to: encoder) }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(info.id, forKey: .id)
        try c.encodeIfPresent(info.originalFilename, forKey: .file)
        try c.encodeIfPresent(info.fileURL?.path, forKey: .path)
        try c.encode(info.kind.rawValue, forKey: .kind)
        try c.encode(info.byteSize, forKey: .size)
        try c.encode(info.addedAt, forKey: .added)
        try c.encodeIfPresent(info.sha256, forKey: .sha256)
        try c.encodeIfPresent(info.savedBy.map(SaverLine.init), forKey: .savedBy)
        if info.isFavorite { try c.encode(true, forKey: .favorite) }
        if !info.companions.isEmpty {
            try c.encode(
                info.companions.map {
                    CompanionLine(
                        role: $0.role.rawValue, file: $0.originalFilename, path: $0.fileURL?.path, size: $0.byteSize,
                        sha256: $0.sha256)
                }, forKey: .companions)
        }
    }
}

/// `savedBy` in `show --json`: the machine, the user on it and the database role.
struct SaverLine: Encodable {
    let host: String?
    let user: String?
    let databaseRole: String?

    init(_ saver: SaverIdentity) {
        host = saver.host
        user = saver.user
        databaseRole = saver.databaseRole
    }
}

/// `write(2)`; a free function because `Output.write` shadows the name inside the enum.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
