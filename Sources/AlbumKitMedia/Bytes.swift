/// Endian-aware integer access to byte arrays; out-of-range reads yield 0 instead of trapping.
extension Array where Element == UInt8 {
    func u16(_ i: Int, bigEndian: Bool = true) -> UInt16 {
        guard i >= 0, i <= count - 2 else { return 0 }
        let a = UInt16(self[i])
        let b = UInt16(self[i + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u24le(_ i: Int) -> UInt32 {
        guard i >= 0, i <= count - 3 else { return 0 }
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16
    }

    func u32(_ i: Int, bigEndian: Bool = true) -> UInt32 {
        guard i >= 0, i <= count - 4 else { return 0 }
        var value: UInt32 = 0
        for k in 0..<4 {
            let byte = UInt32(self[bigEndian ? i + k : i + 3 - k])
            value = value << 8 | byte
        }
        return value
    }

    func u64(_ i: Int, bigEndian: Bool = true) -> UInt64 {
        guard i >= 0, i <= count - 8 else { return 0 }
        var value: UInt64 = 0
        for k in 0..<8 {
            let byte = UInt64(self[bigEndian ? i + k : i + 7 - k])
            value = value << 8 | byte
        }
        return value
    }

    /// An unsigned big-endian integer of `width` bytes (0, 4 or 8; others read as 0).
    func uint(_ i: Int, width: Int) -> UInt64 {
        switch width {
        case 1: i >= 0 && i < count ? UInt64(self[i]) : 0
        case 2: UInt64(u16(i))
        case 4: UInt64(u32(i))
        case 8: u64(i)
        default: 0
        }
    }

    /// A four-character code at `i` as text ("ftyp"), with non-printable bytes as `?`.
    func fourCC(_ i: Int) -> String {
        guard i >= 0, i <= count - 4 else { return "????" }
        return String(self[i..<i + 4].map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" })
    }

    /// Text up to the first NUL, trimmed of spaces; `nil` when empty.
    func cString(_ range: Range<Int>) -> String? {
        let lower = Swift.max(0, range.lowerBound)
        let upper = Swift.min(count, range.upperBound)
        guard lower < upper else { return nil }
        let slice = self[lower..<upper]
        let text = slice.prefix { $0 != 0 }
        let string = String(decoding: text, as: UTF8.self)
        let trimmed = string.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    func starts(with bytes: [UInt8], at i: Int) -> Bool {
        guard i >= 0, i <= count - bytes.count else { return false }
        return self[i..<i + bytes.count].elementsEqual(bytes)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, newlines and NULs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// The ASCII bytes of a four-character code.
    var bytes: [UInt8] { Array(utf8) }
}
