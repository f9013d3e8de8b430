import Foundation

#if os(Linux) || os(Android)
    internal import CShims
#endif

/// One invisible staged file made ahead of time, so that the next lone save into the same folder
/// need not create it on its critical path.
///
/// Creating an `O_TMPFILE` inode waits for the file system's journal (about 0.2 ms on ext4, more
/// while another flush commits): a quarter of a lone save's time before its copy can begin. A
/// process that has just saved one photo therefore makes the next one's staged file in the
/// background, after its save was acknowledged, and keeps it open: an unnamed inode, which the
/// kernel frees when the descriptor is closed or the process ends, so it can never be left behind.
/// It is used only for the very folder it was made in (same device and inode), and never while a
/// fault is injected into staging (tests see the call they armed).
///
/// ```swift
/// FileSystem.prepareSpareStagedFile(in: shard)        // after a save, off its critical path
/// let staged = try FileSystem.stage(in: shard, as: StagingName(kind: "partial"))   // takes it
/// ```
extension FileSystem {
    /// Makes a spare staged file in `directory` for the next ``stage(in:as:beforeNaming:)`` there,
    /// unless one is waiting already. Does nothing where `O_TMPFILE` is not used; a failure only
    /// means the next save makes its own.
    package static func prepareSpareStagedFile(in directory: Descriptor) {
        #if os(Linux) || os(Android)
            guard !forcesPartialFiles, FaultInjector.check(.openTemporary, directory.path) == nil,
                // A folder that cannot be examined gets no spare.
                let folder = try? version(of: directory),
                spares.withLock({ $0.files[SpareFolder(folder)] == nil })
            else { return }
            let fd = retrying { albumkit_open_tmpfile(directory.fd, fileMode(for: directory.path)) }
            guard fd >= 0 else { return }
            let made = Descriptor(fd: fd, path: directory.path + "/(staged)")
            let dropped = spares.withLock { spares -> [Descriptor] in
                let key = SpareFolder(folder)
                var dropped = spares.files[key].map { [$0] } ?? []
                spares.files[key] = made
                spares.order.removeAll { $0 == key }
                spares.order.append(key)
                while spares.order.count > maximumSpares {
                    if let file = spares.files.removeValue(forKey: spares.order.removeFirst()) { dropped.append(file) }
                }
                return dropped
            }
            // Handed out of the lock so that the spares dropped close here, as `dropped` goes.
            _ = dropped
        #endif
    }

    #if os(Linux) || os(Android)
        /// A folder, by device and inode.
        private struct SpareFolder: Hashable {
            let device: UInt64
            let inode: UInt64
            init(_ version: FileVersion) {
                device = version.device
                inode = version.inode
            }
        }

        /// Spares kept at once: one per folder a process saves into, the latest few (several
        /// libraries open in one process).
        private static let maximumSpares = 8

        /// The spares, by the folder each was made in, and the folders from oldest to newest.
        private static let spares = Locked<(files: [SpareFolder: Descriptor], order: [SpareFolder])>(([:], []))

        /// The spare staged file made in `directory` itself, if any; it is no longer a spare.
        static func takeSpareStagedFile(for directory: Descriptor) -> Descriptor? {
            guard !spares.withLock({ $0.files.isEmpty }),
                // A folder that cannot be examined: a fresh file.
                let folder = try? version(of: directory)
            else { return nil }
            return spares.withLock { spares in
                let key = SpareFolder(folder)
                spares.order.removeAll { $0 == key }
                return spares.files.removeValue(forKey: key)
            }
        }

        /// The inode of the spare staged file waiting in `directory`, if any (for tests).
        package static func spareStagedFileInode(in directory: Descriptor) -> UInt64? {
            // A folder that cannot be examined has no spare.
            guard let folder = try? version(of: directory),
                let file = spares.withLock({ $0.files[SpareFolder(folder)] })
            else { return nil }
            // A staged file that cannot be examined is reported as none.
            return try? version(of: file).inode
        }
    #endif
}
