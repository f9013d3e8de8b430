import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// The absolute path `path` names once every symlink, `.` and `..` is resolved the way the
    /// kernel resolves them: the longest prefix that exists goes through `realpath`, and the
    /// missing rest (a folder about to be made) is appended with `.` and `..` applied by name.
    ///
    /// ```swift
    /// FileSystem.resolvedPath("Pictures/Trips/../new")   // "/home/ann/Pictures/new"
    /// ```
    package static func resolvedPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute.split(separator: "/").map(String.init)
        var missing: [String] = []  // innermost last-removed first
        while true {
            if let resolved = realpath("/" + existing.joined(separator: "/"), nil) {
                defer { free(resolved) }
                var parts = String(cString: resolved).split(separator: "/").map(String.init)
                for part in missing.reversed() {
                    switch part {
                    case ".": continue
                    case "..": _ = parts.popLast()
                    default: parts.append(part)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = existing.popLast() else { return absolute }
            missing.append(last)
        }
    }

    /// Whether `path` is `folder` or lies below it (both already resolved with ``resolvedPath(_:)``).
    package static func isPath(_ path: String, inside folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }
}
