/// One box (atom) of an ISO base media file: where it starts, where its payload starts, where it ends.
struct ISOBox {
    var type: String
    var start: UInt64
    var payload: UInt64
    var end: UInt64

    var payloadLength: UInt64 { end - payload }

    /// Reads the box header at `offset`, which must end by `limit` (the parent's end or the file's end).
    ///
    /// Handles 64-bit sizes (`size == 1`), to-the-end sizes (`size == 0`) and `uuid` types; throws
    /// `.corrupt` for a size smaller than its header or one that runs past `limit`.
    static func read(
        _ reader: ByteReader, at offset: UInt64, limit: UInt64, format: String, parent: String?
    ) throws(MediaInspectionError) -> ISOBox {
        let within = parent.map { "its parent box '\($0)'" } ?? "the end of the file"
        guard offset + 8 <= limit, let header = try reader.bytes(at: offset, count: 8) else {
            let reason = "\(format) box header at offset \(offset) runs past \(within)"
            if parent == nil { throw .cutShort(reason, present: limit, expected: offset + 8) }
            throw MediaInspectionError(.corrupt, reason)
        }
        let type = header.fourCC(4)
        var size = UInt64(header.u32(0))
        var payload = offset + 8
        if size == 1 {
            guard offset + 16 <= limit, let large = try reader.bytes(at: offset + 8, count: 8) else {
                throw MediaInspectionError(.corrupt, "\(format) box '\(type)' at offset \(offset) runs past \(within)")
            }
            size = large.u64(0)
            payload += 8
            guard size >= 16 else {
                throw MediaInspectionError(
                    .corrupt, "\(format) box '\(type)' at offset \(offset) has an invalid size \(size)")
            }
        } else if size == 0 {
            size = limit - offset
        } else if size < 8 {
            throw MediaInspectionError(
                .corrupt, "\(format) box '\(type)' at offset \(offset) has an invalid size \(size)")
        }
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= limit else {
            let reason = "\(format) box '\(type)' at offset \(offset) runs past \(within)"
            // The file's own boxes say how long it is (at least); a size no disk holds says nothing.
            if parent == nil, !overflow, reader.size == limit {
                throw .cutShort(reason, present: limit, expected: end < 1 << 50 ? end : nil)
            }
            throw MediaInspectionError(.corrupt, reason)
        }
        if type == "uuid" {
            payload += 16
            guard payload <= end else {
                throw MediaInspectionError(
                    .corrupt, "\(format) box 'uuid' at offset \(offset) has an invalid size \(size)")
            }
        }
        return ISOBox(type: type, start: offset, payload: payload, end: end)
    }
}
