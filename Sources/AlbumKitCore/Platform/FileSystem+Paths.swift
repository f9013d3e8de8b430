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

    /// Whether `path` is the folder `folder` or lies below it, after symlinks and `..` are resolved:
    /// by name, and by identity — a folder on `path`'s way that is `folder` itself (same device and
    /// inode) counts too, so a bind mount of the folder, or another spelling of it on a file system
    /// that ignores case, is inside.
    package static func isPath(_ path: String, inside folder: String) -> Bool {
        let resolved = resolvedPath(path)
        let root = resolvedPath(folder)
        if resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/") { return true }
        guard let target = fileStatus(atPath: root), target.kind == .directory else { return false }
        var components = resolved.split(separator: "/").map(String.init)
        while !components.isEmpty {
            if let info = fileStatus(atPath: "/" + components.joined(separator: "/")), info.kind == .directory,
                info.device == target.device, info.inode == target.inode
            {
                return true
            }
            components.removeLast()
        }
        return false
    }
}
