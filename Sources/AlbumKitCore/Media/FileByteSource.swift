/// A ``ByteSource`` over an open file, read with `pread` on demand; counts the bytes it read.
package final class FileByteSource: ByteSource {
    package let file: FileSystem.Descriptor
    package let size: UInt64
    package private(set) var bytesRead: UInt64 = 0

    package init(file: FileSystem.Descriptor, size: UInt64) {
        self.file = file
        self.size = size
    }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        let n = try bytes.withUnsafeMutableBytes { try FileSystem.read(file, into: $0, at: offset) }
        bytesRead += UInt64(n)
        if n < wanted { bytes.removeLast(wanted - n) }
        return bytes
    }
}
