import AlbumKitCore

/// The library's folders a check reads files in, each opened through the gate once and kept
/// open until the check ends: reading a file is then one `openat` in its folder, not the walk
/// from the library's folder down (three opens and three closes a file more).
///
/// ```swift
/// let folders = OpenedFolders(gate: gate, keeping: 256)
/// defer { folders.closeAll() }
/// let file = try FileSystem.openFileWithSize(name, in: try folders.folder("originals/3f"))
/// ```
///
/// A folder swapped for a link after it was opened is not followed: the check goes on reading
/// the folder it opened, the library's own.
final class OpenedFolders: Sendable {
    private let gate: RemovalGate
    private let opened = Locked<[String: FileSystem.Descriptor]>([:])
    /// How many folders are kept open at most (a share of the process's open files: a library
    /// has 256 shards); the others are opened for each file.
    private let limit: Int

    init(gate: RemovalGate, keeping limit: Int) {
        self.gate = gate
        self.limit = limit
    }

    /// Closes every folder kept open.
    func closeAll() {
        let folders = opened.withLock { opened -> [FileSystem.Descriptor] in
            defer { opened.removeAll() }
            return Array(opened.values)
        }
        for folder in folders { folder.close() }
    }

    /// The folder `relative` (beneath the library's folder), opened through the gate.
    func folder(_ relative: String) throws(SystemError) -> FileSystem.Descriptor {
        if let known = opened.withLock({ $0[relative] }) { return known }
        let folder = try gate.openFolder(relative)
        return opened.withLock { opened in
            if let other = opened[relative] { return other }
            if opened.count < limit { opened[relative] = folder }
            return folder
        }
    }
}
