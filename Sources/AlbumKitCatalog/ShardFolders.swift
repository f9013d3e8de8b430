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
/// let folders = ShardFolders(gate: RemovalGate(root: root.path))
/// let (directory, created) = try folders.open()   // the same descriptor for every item of the chunk
/// ```
final class ShardFolders: Sendable {
    /// The folder this chunk writes to, e.g. `3f`.
    let name: String
    private let gate: RemovalGate
    private let opened = Locked<(directory: FileSystem.Descriptor, created: Bool)?>(nil)

    /// The folder of the library `gate` guards, opened beneath its folder without following a link
    /// (a symlinked `originals/` or shard folder fails: no photo is written outside the library).
    init(gate: RemovalGate, now: Date = LibraryClock.now()) {
        self.gate = gate
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
                let made = try gate.makeFolder("originals/" + name)
                opened = (made.folder, made.created)
                return .success((made.folder, made.created))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
