#if os(Linux)
    import AlbumKitCore

    /// A ``ByteSource`` over one object of the store, fetched with ranged GETs of ``blockSize``
    /// bytes as they are read, the last few blocks kept: reading a photo's headers and its embedded
    /// thumbnail costs a request or two, not the whole original.
    final class ObjectByteSource: ByteSource {
        let store: S3Client
        let key: String
        let size: UInt64
        /// How many bytes one request asks for.
        static let blockSize = 64 << 10
        private var blocks: [(index: UInt64, bytes: [UInt8])] = []
        /// How many requests were sent (for tests).
        private(set) var requests = 0

        init(store: S3Client, key: String, size: UInt64) {
            self.store = store
            self.key = key
            self.size = size
        }

        func read(at offset: UInt64, count: Int) throws -> [UInt8] {
            guard offset < size, count > 0 else { return [] }
            let end = min(size, offset + UInt64(count))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(end - offset))
            var position = offset
            while position < end {
                let index = position / UInt64(Self.blockSize)
                let block = try self.block(index)
                let start = Int(position - index * UInt64(Self.blockSize))
                guard start < block.count else { break }  // the object is shorter than the library says
                let taken = block[start..<min(block.count, start + Int(end - position))]
                bytes.append(contentsOf: taken)
                position += UInt64(taken.count)
            }
            return bytes
        }

        /// Block `index`, from the last few kept or from the store.
        private func block(_ index: UInt64) throws -> [UInt8] {
            if let kept = blocks.first(where: { $0.index == index }) { return kept.bytes }
            let bytes = try store.get(key: key, offset: index * UInt64(Self.blockSize), count: Self.blockSize)
            requests += 1
            blocks.append((index, bytes))
            if blocks.count > 8 { blocks.removeFirst() }
            return bytes
        }
    }
#endif
