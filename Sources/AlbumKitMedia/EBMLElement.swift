/// One element of an EBML file (Matroska, WebM): its ID, where its data starts and where it ends.
///
/// IDs keep their length marker bits, as the Matroska specification writes them (`0x1A45DFA3`);
/// sizes do not. A size whose data bits are all ones means "unknown" (live recordings): `end` is
/// then `nil` and the element runs until something that cannot be its child appears.
struct EBMLElement {
    var id: UInt32
    var start: UInt64
    var data: UInt64
    var end: UInt64?

    /// The data length, when the size is known.
    var length: UInt64? { end.map { $0 - data } }

    /// Reads the element header at `offset`, whose element must end by `limit`.
    ///
    /// - Throws: `.corrupt` for an invalid ID or size marker, a header cut short, or a size that
    ///   runs past `limit`.
    static func read(
        _ reader: ByteReader, at offset: UInt64, limit: UInt64, format: String
    ) throws(MediaInspectionError) -> EBMLElement {
        let available = Int(min(12, limit > offset ? limit - offset : 0))
        guard available >= 2, let head = try reader.bytes(at: offset, count: available) else {
            throw MediaInspectionError(.corrupt, "\(format) element header at offset \(offset) runs past the end")
        }
        guard let header = parse(head, at: 0) else {
            let cut = head.count < 12 ? " or runs past the end" : ""
            throw MediaInspectionError(.corrupt, "\(format) element header at offset \(offset) is invalid\(cut)")
        }
        let data = offset + UInt64(header.headerLength)
        var end: UInt64?
        if let size = header.size {
            let (sum, overflow) = data.addingReportingOverflow(size)
            guard !overflow, sum <= limit else {
                throw MediaInspectionError(
                    .corrupt,
                    "\(format) element \(hex(header.id)) at offset \(offset) (\(size) bytes) runs past the end of its parent or the file"
                )
            }
            end = sum
        }
        return EBMLElement(id: header.id, start: offset, data: data, end: end)
    }

    /// The ID, size (`nil` when unknown) and header length of the element header at `i` in `bytes`,
    /// or `nil` when the header is invalid or incomplete.
    static func parse(_ bytes: [UInt8], at i: Int) -> (id: UInt32, size: UInt64?, headerLength: Int)? {
        guard i >= 0, i < bytes.count else { return nil }
        let idLength = bytes[i].leadingZeroBitCount + 1
        guard idLength <= 4, i + idLength < bytes.count else { return nil }
        var id: UInt32 = 0
        for k in 0..<idLength { id = id << 8 | UInt32(bytes[i + k]) }
        let s = i + idLength
        let sizeLength = bytes[s].leadingZeroBitCount + 1
        guard sizeLength <= 8, s + sizeLength <= bytes.count else { return nil }
        var size = UInt64(bytes[s]) & (0xFF >> sizeLength)
        var allOnes = size == UInt64(0xFF >> sizeLength)
        for k in 1..<sizeLength {
            size = size << 8 | UInt64(bytes[s + k])
            allOnes = allOnes && bytes[s + k] == 0xFF
        }
        return (id, allOnes ? nil : size, idLength + sizeLength)
    }

    /// The children of an element held in memory: `(id, data range)` for each, in order, and
    /// whether they fill it exactly. Stops at the first child that does not fit (a damaged tail),
    /// keeping the ones before it.
    static func children(
        of bytes: [UInt8], limit: Int = 100_000
    ) -> (list: [(id: UInt32, data: Range<Int>)], isComplete: Bool) {
        var result: [(UInt32, Range<Int>)] = []
        var i = 0
        while i < bytes.count, result.count < limit, let header = parse(bytes, at: i) {
            let start = i + header.headerLength
            guard let size = header.size, size <= UInt64(bytes.count - start) else { break }
            result.append((header.id, start..<start + Int(size)))
            i = start + Int(size)
        }
        return (result, i == bytes.count)
    }

    /// An element ID as Matroska writes it (`0x1A45DFA3`).
    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: digits.count % 2) + digits
    }
}

extension Array where Element == UInt8 {
    /// An unsigned big-endian integer of 0–8 bytes in `range` (EBML unsigned integers).
    func ebmlUnsigned(_ range: Range<Int>) -> UInt64? {
        guard range.count <= 8, range.lowerBound >= 0, range.upperBound <= count else { return nil }
        return self[range].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A signed big-endian integer of 1–8 bytes in `range` (EBML signed integers and dates).
    func ebmlSigned(_ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, let value = ebmlUnsigned(range) else { return nil }
        let shift = UInt64(64 - 8 * range.count)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    /// A 4- or 8-byte big-endian IEEE float in `range` (EBML floats); `nil` for other lengths.
    func ebmlFloat(_ range: Range<Int>) -> Double? {
        switch range.count {
        case 4: ebmlUnsigned(range).map { Double(Float(bitPattern: UInt32($0))) }
        case 8: ebmlUnsigned(range).map { Double(bitPattern: $0) }
        default: nil
        }
    }
}
