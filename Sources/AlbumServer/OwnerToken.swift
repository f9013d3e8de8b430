import AlbumKitCore
import Foundation

/// The owner's access token of `album serve` for one library: 256 random bits, kept in a file of
/// its own (mode 0600) under `$XDG_STATE_HOME/albumkit/serve/`, named after the library's location,
/// so every server started on that library on this machine accepts the same link.
///
/// ```swift
/// let token = try OwnerToken.load(stateFolder: "/home/me/.local/state/albumkit/serve", library: "/home/me/Photos.albumlibrary")
/// print(token.value.count)   // 64 hexadecimal digits
/// ```
package struct OwnerToken: Sendable {
    /// The token, 64 lowercase hexadecimal digits.
    package let value: String

    /// The cross-site request forgery token that goes with it: every change must send it back in
    /// `X-CSRF-Token`. Derived from the token, so every server of this library agrees on it.
    package var csrf: String {
        let bytes = Array(("albumkit-serve-csrf\n" + value).utf8)
        return bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
    }

    package init(value: String) { self.value = value }

    /// Reads the token of `library` from `stateFolder`, making it (and the folder) the first time.
    ///
    /// - Throws: `.libraryUnwritable` naming the file when it cannot be read or written.
    package static func load(stateFolder: String, library: String) throws -> OwnerToken {
        let name = String(Array(library.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }.prefix(32)) + ".token"
        do {
            return OwnerToken(value: try readOrMake(name, in: stateFolder))
        } catch {
            throw AlbumError(
                .libraryUnwritable, "The access token in \(stateFolder)/\(name) cannot be kept: \(error).",
                file: stateFolder + "/" + name, underlying: error)
        }
    }

    /// The token in `folder/name`, made first when there is none.
    private static func readOrMake(_ name: String, in path: String) throws(SystemError) -> String {
        _ = try FileSystem.makeDirectory(atPath: path, mode: 0o700)
        let folder = try FileSystem.openDirectory(path)
        if let text = try read(name, in: folder) { return text }
        let made = random()
        var taken = false
        do { try FileSystem.createFile(name, in: folder, bytes: Array(made.utf8)) } catch {
            // Another server made it first: its token is the one.
            guard error.errno == EEXIST else { throw error }
            taken = true
        }
        guard taken else { return made }
        guard let text = try read(name, in: folder) else {
            throw SystemError("read", path: path + "/" + name, errno: EINVAL)
        }
        return text
    }

    private static func read(_ name: String, in folder: FileSystem.Descriptor) throws(SystemError) -> String? {
        guard let bytes = try FileSystem.readSmallFile(name, in: folder, limit: 256),
            let text = String(bytes: bytes, encoding: .utf8), isWellFormed(text)
        else { return nil }
        return text
    }

    /// 256 bits from the system's random source, as hexadecimal.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next()
            return String(repeating: "0", count: word.leadingZeroBitCount / 4) + String(word, radix: 16)
        }.joined()
    }

    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Compares `given` with the token in time that does not depend on where they differ.
    package func matches(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(value.utf8)
        let b = Array(given.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<a.count { difference |= a[index] ^ (index < b.count ? b[index] : 0) }
        return difference == 0
    }

    /// As ``matches(_:)`` for the CSRF token.
    package func matchesCSRF(_ given: String?) -> Bool { OwnerToken(value: csrf).matches(given) }
}
