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
/// FileSystem.prepareStagedFileAhead(in: shard)        // after a save, off its critical path
/// let staged = try FileSystem.stage(in: shard, as: StagingName(kind: "partial"))   // takes it
/// ```
extension FileSystem {
    /// Makes a staged file ahead of time in `directory` for the next ``stage(in:as:beforeNaming:)`` there,
    /// unless one is waiting already. Does nothing where `O_TMPFILE` is not used; a failure only
    /// means the next save makes its own.
    package static func prepareStagedFileAhead(in directory: Descriptor) {
        #if os(Linux) || os(Android)
            guard !forcesPartialFiles, FaultInjector.check(.openTemporary, directory.path) == nil,
                // A folder that cannot be examined gets none.
                let folder = try? version(of: directory),
                madeAhead.withLock({ $0.files[FolderKey(folder)] == nil })
            else { return }
            let fd = retrying { albumkit_open_tmpfile(directory.fd, fileMode(for: directory.path)) }
            guard fd >= 0 else { return }
            let made = Descriptor(fd: fd, path: directory.path + "/(staged)")
            let dropped = madeAhead.withLock { kept -> [Descriptor] in
                let key = FolderKey(folder)
                var dropped = kept.files[key].map { [$0] } ?? []
                kept.files[key] = made
                kept.order.removeAll { $0 == key }
                kept.order.append(key)
                while kept.order.count > maximumMadeAhead {
                    if let file = kept.files.removeValue(forKey: kept.order.removeFirst()) { dropped.append(file) }
                }
                return dropped
            }
            // Handed out of the lock so that the spares dropped close here, as `dropped` goes.
            _ = dropped
        #endif
    }

    #if os(Linux) || os(Android)
        /// A folder, by device and inode.
        private struct FolderKey: Hashable {
            let device: UInt64
            let inode: UInt64
            init(_ version: FileVersion) {
                device = version.device
                inode = version.inode
            }
        }

        /// Files made ahead kept at once: one per folder a process saves into, the latest few (several
        /// libraries open in one process).
        private static let maximumMadeAhead = 8

        /// The files made ahead, by the folder each was made in, and the folders from oldest to newest.
        private static let madeAhead = Locked<(files: [FolderKey: Descriptor], order: [FolderKey])>(([:], []))

        /// The staged file made ahead in `directory` itself, if any; it is no longer kept.
        static func takeStagedFileMadeAhead(for directory: Descriptor) -> Descriptor? {
            guard !madeAhead.withLock({ $0.files.isEmpty }),
                // A folder that cannot be examined: a fresh file.
                let folder = try? version(of: directory)
            else { return nil }
            return madeAhead.withLock { kept in
                let key = FolderKey(folder)
                kept.order.removeAll { $0 == key }
                return kept.files.removeValue(forKey: key)
            }
        }

        /// The inode of the staged file made ahead waiting in `directory`, if any (for tests).
        package static func stagedFileMadeAheadInode(in directory: Descriptor) -> UInt64? {
            // A folder that cannot be examined has none.
            guard let folder = try? version(of: directory),
                let file = madeAhead.withLock({ $0.files[FolderKey(folder)] })
            else { return nil }
            // A staged file that cannot be examined is reported as none.
            return try? version(of: file).inode
        }
    #endif
}
