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
        guard write(line + "\n", to: STDOUT_FILENO) else {
            // stdout is gone or full (`> /dev/full`, a closed pipe): say so once, fail.
            _ = write("album: cannot write the output: \(String(cString: strerror(errno)))\n", to: STDERR_FILENO)
            exit(1)
        }
    }

    static func err(_ line: String) {
        _ = write(line + "\n", to: STDERR_FILENO)
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
        out(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self))
    }

    /// Whether standard error is a terminal (progress bars only then).
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static func progress(_ completed: Int, of total: Int) {
        let width = 30
        let filled = total == 0 ? width : completed * width / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        _ = write("\r[\(bar)] \(completed)/\(total)" + (completed == total ? "\n" : ""), to: STDERR_FILENO)
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

/// `write(2)`; a free function because `Output.write` shadows the name inside the enum.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
