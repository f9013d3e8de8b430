/// The tables of a reflected CRC taken eight bytes a step (slicing by 8), for ``CRC32`` and the
/// catalog's journal digest (CRC-64): eight tables of 256, `tables[k * 256 + b]` the CRC of byte
/// `b` followed by `k` zero bytes.
///
/// ```swift
/// let tables = CRCTables.slicingBy8(reflectedPolynomial: UInt32(0xEDB8_8320))
/// ```
package enum CRCTables {
    package static func slicingBy8<T: FixedWidthInteger & UnsignedInteger>(reflectedPolynomial polynomial: T) -> [T] {
        var tables = [T](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = T(n)
            for _ in 0..<8 { c = c & 1 != 0 ? polynomial ^ (c >> 1) : c >> 1 }
            tables[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = tables[(k - 1) * 256 + n]
                tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }
}
