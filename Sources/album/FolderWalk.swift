import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files under a folder for `album import` / `save -r`: every regular file in the tree, sorted,
/// without hidden files and folders, filtered by `--include` / `--exclude` globs. Symbolic links
/// to folders are not followed (a link cycle cannot make the walk endless).
struct FolderWalk {
    var includes: [String] = []
    var excludes: [String] = []

    func files(under root: String) -> [String] {
        let rootURL = URL(fileURLWithPath: root)
        guard
            let enumerator = FileManager.default.enumerator(
                at: rootURL, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        let prefix = rootURL.standardizedFileURL.path + "/"
        var found: [String] = []
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey])
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent
            if values?.isDirectory == true {
                if excludes.contains(where: { matches($0, relative) }) { enumerator.skipDescendants() }
                continue
            }
            guard values?.isRegularFile == true else { continue }
            if excludes.contains(where: { matches($0, relative) }) { continue }
            if !includes.isEmpty && !includes.contains(where: { matches($0, relative) }) { continue }
            found.append((root.hasSuffix("/") ? root : root + "/") + relative)
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Shell-style match, ignoring case (`*.jpg` matches `IMG_1.JPG`): against the path below the
    /// folder when the pattern has a `/`, else against the name.
    func matches(_ pattern: String, _ relative: String) -> Bool {
        let subject = pattern.contains("/") ? relative : (relative as NSString).lastPathComponent
        return fnmatch(pattern.lowercased(), subject.lowercased(), 0) == 0
    }
}
