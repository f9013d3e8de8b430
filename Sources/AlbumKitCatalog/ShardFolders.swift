import AlbumKitCore
import Foundation

/// The `originals/` sub-folder one chunk of saves stages into, opened (and made, when missing) once
/// for the whole chunk and closed when the last staged item holding it is gone.
///
/// The folder's name follows the clock — two hex digits of the time in units of 2^14 ms (16 s),
/// cycling through all 256 folders every 70 minutes — so a batch lands in one folder while a
/// library built over days still spreads evenly. Asset ids stay random UUIDs; rows record each
/// file's path, so the layout of older files does not matter.
///
/// ```swift
/// let folders = ShardFolders(originals: originalsPath)
/// let (directory, created) = try folders.open()   // the same descriptor for every item of the chunk
/// ```
final class ShardFolders: Sendable {
    /// The folder this chunk writes to, e.g. `3f`.
    let name: String
    private let originals: String
    private let opened = Locked<(directory: FileSystem.Descriptor, created: Bool)?>(nil)

    init(originals: String, now: Date = LibraryClock.now()) {
        self.originals = originals
        // Before 1970 (a clock set wrong) the milliseconds are negative: their two's complement
        // still names a folder, where a conversion to `UInt64` would stop the process.
        let milliseconds = Int64(max(min(now.timeIntervalSince1970 * 1000, 9e18), -9e18))
        let units = UInt64(bitPattern: milliseconds) >> 14
        let digits = String(units & 0xFF, radix: 16)
        name = digits.count == 1 ? "0" + digits : digits
    }

    deinit {
        if let directory = opened.withLock({ $0?.directory }) { FileSystem.close(directory) }
    }

    /// The folder's descriptor (owned by this object: do not close it) and whether this chunk made
    /// the folder (its entry in `originals/` then needs flushing too, for every save into it).
    func open() throws(SystemError) -> (directory: FileSystem.Descriptor, created: Bool) {
        let outcome = opened.withLock {
            opened -> Result<(directory: FileSystem.Descriptor, created: Bool), SystemError> in
            if let opened { return .success(opened) }
            do throws(SystemError) {
                let made = try Self.openOrMake(name, in: originals)
                opened = made
                return .success(made)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private static func openOrMake(
        _ name: String, in originals: String
    ) throws(SystemError) -> (directory: FileSystem.Descriptor, created: Bool) {
        let path = originals + "/" + name
        do { return (try FileSystem.openDirectory(path), false) } catch  where error.errno == ENOENT {}
        let parent = try FileSystem.openDirectory(originals)
        defer { FileSystem.close(parent) }
        let created = try FileSystem.makeDirectory(name, in: parent)
        return (try FileSystem.openDirectory(name, in: parent), created)
    }
}
