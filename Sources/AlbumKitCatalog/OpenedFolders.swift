import AlbumKitCore

/// The library's folders a check reads files in, each opened through the gate once and kept
/// open until the check ends: reading a file is then one `openat` in its folder, not the walk
/// from the library's folder down (three opens and three closes a file more).
///
/// ```swift
/// let folders = OpenedFolders(gate: gate)
/// let file = try FileSystem.openFileWithSize(name, in: try folders.folder("originals/3f"))
/// ```
///
/// A folder swapped for a link after it was opened is not followed: the check goes on reading
/// the folder it opened, the library's own.
final class OpenedFolders: Sendable {
    private let gate: RemovalGate
    private let opened = Locked<[String: FileSystem.Descriptor]>([:])

    /// At most this many folders are kept open (a library has 256 shards); others are opened
    /// for each file.
    static let kept = 1024

    init(gate: RemovalGate) { self.gate = gate }

    /// The folder `relative` (beneath the library's folder), opened through the gate.
    func folder(_ relative: String) throws(SystemError) -> FileSystem.Descriptor {
        if let known = opened.withLock({ $0[relative] }) { return known }
        let folder = try gate.openFolder(relative)
        return opened.withLock { opened in
            if let other = opened[relative] { return other }
            if opened.count < Self.kept { opened[relative] = folder }
            return folder
        }
    }
}
