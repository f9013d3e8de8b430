import AlbumKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files under a folder for `album import` / `save -r`: every regular file in the tree (names
/// that are not valid UTF-8 included), sorted, without hidden files and folders, filtered by
/// `--include` / `--exclude` globs. What the walk cannot save is reported, never passed over:
/// symbolic links to folders (not followed, so a link cycle cannot make the walk endless), broken
/// links, pipes and devices, folders it cannot read.
struct FolderWalk {
    var includes: [String] = []
    var excludes: [String] = []

    /// Everything under `root` that the globs keep (``FileSystem/walk(_:leavingOut:)``); throws when
    /// `root` itself cannot be read.
    func found(under root: FileSystemPath) throws -> [FileSystem.Found] {
        let excludes = self.excludes
        let includes = self.includes
        return try FileSystem.walk(root) { relative, isFolder in
            if excludes.contains(where: { Self.matches($0, relative) }) { return true }
            return !isFolder && !includes.isEmpty && !includes.contains(where: { Self.matches($0, relative) })
        }
    }

    /// Shell-style match, ignoring case (`*.jpg` matches `IMG_1.JPG`): against the name, or, when
    /// the pattern has a `/`, against the end of the path below the folder, as rsync matches
    /// (`100CANON/*` keeps `DCIM/100CANON/IMG_1.JPG` whether the folder given is the card or its
    /// `DCIM`); a pattern starting with `/` is anchored at the folder given (`/DCIM/*`).
    static func matches(_ pattern: String, _ relative: FileSystemPath) -> Bool {
        guard pattern.contains("/") else { return matchesWhole(pattern, relative.lastComponent) }
        if pattern.hasPrefix("/") { return matchesWhole(String(pattern.dropFirst()), relative) }
        var start = relative.bytes.startIndex
        while true {
            if matchesWhole(pattern, FileSystemPath(bytes: relative.bytes[start...])) { return true }
            guard let slash = relative.bytes[start...].firstIndex(of: UInt8(ascii: "/")) else { return false }
            start = slash + 1
        }
    }

    private static func matchesWhole(_ pattern: String, _ subject: FileSystemPath) -> Bool {
        guard let text = String(bytes: subject.bytes, encoding: .utf8) else {
            // Not UTF-8: fold ASCII letters only, byte for byte.
            let folded = subject.bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            return fnmatchBytes(pattern.lowercased(), folded)
        }
        return fnmatch(pattern.lowercased(), text.lowercased(), 0) == 0
    }

    private static func fnmatchBytes(_ pattern: String, _ subject: [UInt8]) -> Bool {
        (subject + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { fnmatch(pattern, $0.baseAddress!, 0) == 0 }
        }
    }
}
