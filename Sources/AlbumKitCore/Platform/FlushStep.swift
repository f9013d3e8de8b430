/// One system call of a flush, and the plan of calls that makes a batch of files durable.
///
/// The plan is pure, so Darwin's is tested on Linux too:
/// ```swift
/// FlushStep.plan(forBatchOf: 3, on: .darwin)  // [.fsync(0), .fsync(1), .fullFsync(2)]
/// ```
package enum FlushStep: Sendable, Hashable {
    /// `syncfs` of the file system holding file `index`: every file on it, data and names.
    case syncFileSystem(Int)
    /// `fsync` of file `index`: its data and metadata reach the drive.
    case fsync(Int)
    /// `F_FULLFSYNC` of file `index` (`fsync` where the file system refuses it): its data reaches
    /// the drive, then the drive writes everything it holds in its cache to the medium.
    case fullFsync(Int)

    /// How a platform can flush.
    package enum Platform: Sendable {
        /// Linux: `syncfs` flushes a whole file system at once.
        case linux
        /// Apple platforms: `fsync` stops at the drive's cache; `F_FULLFSYNC` empties it.
        case darwin
        /// Elsewhere: `fsync` of each file.
        case other

        /// The platform this code runs on.
        package static var current: Platform {
            #if os(Linux) || os(Android)
                .linux
            #elseif canImport(Darwin)
                .darwin
            #else
                .other
            #endif
        }
    }

    /// The calls that make `count` files (of one library, so of one file system) durable.
    ///
    /// - One file: `fsync` (Linux), `F_FULLFSYNC` (Darwin).
    /// - Several on Linux, or `wholeFileSystem` (the batch goes with other files written on that
    ///   file system, such as a catalog's log): one `syncfs`.
    /// - Several on Darwin: `fsync` of each but the last, then `F_FULLFSYNC` of the last, which
    ///   also writes the drive's cache, holding the others, to the medium.
    package static func plan(
        forBatchOf count: Int, on platform: Platform = .current, wholeFileSystem: Bool = false
    ) -> [FlushStep] {
        guard count > 0 else { return [] }
        switch platform {
        case .linux:
            return count == 1 && !wholeFileSystem ? [.fsync(0)] : [.syncFileSystem(0)]
        case .darwin:
            return (0..<count - 1).map(FlushStep.fsync) + [.fullFsync(count - 1)]
        case .other:
            return (0..<count).map(FlushStep.fsync)
        }
    }
}
