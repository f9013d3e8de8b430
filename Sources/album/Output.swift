import AlbumKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing results: text for people, JSON for scripts, errors on stderr, a progress bar on a terminal.
enum Output {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func json(_ value: some Encodable) {
        out(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self))
    }

    /// Whether standard error is a terminal (progress bars only then).
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static func progress(_ completed: Int, of total: Int) {
        let width = 30
        let filled = total == 0 ? width : completed * width / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(completed)/\(total)".utf8))
        if completed == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// `album save --json` lines.
struct SaveLine: Encodable {
    struct Failure: Encodable {
        let code: String
        let message: String
    }
    let file: String
    var asset: String?
    var album: String?
    var albumOutcome: String?
    var existing: Bool?
    var error: Failure?
}

/// `album show --json` entries: the asset plus its media metadata keys.
struct AssetLine: Encodable {
    let info: AssetInfo

    private enum Keys: String, CodingKey {
        case id, file, kind, size, added, sha256
    }

    func encode(to encoder: any Encoder) throws {
        if let metadata = info.metadata { try metadata.encode(to: encoder) }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(info.id, forKey: .id)
        try c.encodeIfPresent(info.originalFilename, forKey: .file)
        try c.encode(info.kind.rawValue, forKey: .kind)
        try c.encode(info.byteSize, forKey: .size)
        try c.encode(info.addedAt, forKey: .added)
        try c.encodeIfPresent(info.sha256, forKey: .sha256)
    }
}
