import Foundation

/// Random bytes for tests, read from the kernel (`/dev/urandom`) in one go: drawing them one at a
/// time from a generator took minutes for 72 MiB in a debug build.
///
/// ```
/// let noise = RandomBytes.make(1 << 20)   // 1 MiB that compresses to nothing
/// ```
public enum RandomBytes {
    /// `count` random bytes.
    public static func make(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        guard let urandom = FileHandle(forReadingAtPath: "/dev/urandom") else {
            preconditionFailure("/dev/urandom cannot be opened")
        }
        defer { try? urandom.close() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            bytes += urandom.readData(ofLength: count - bytes.count)
        }
        return bytes
    }
}
