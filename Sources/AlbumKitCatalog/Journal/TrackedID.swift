/// An asset's id as ``JournalChangeTracker`` keeps it for every asset of the library: the 16 bytes
/// of the lowercase UUID the catalog gives each asset (``RandomID``), or, for an id not written in
/// exactly that form (a record made by something else), the text itself. At a million assets the
/// bytes take a fraction of what a million strings and their allocations take.
enum TrackedID: Hashable, Sendable, ExpressibleByStringLiteral {
    case bytes(UInt64, UInt64)
    case text(String)

    init(_ id: String) {
        self = Self.packed(id) ?? .text(id)
    }

    init(stringLiteral id: String) { self.init(id) }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hexadecimal as two numbers; `nil` for
    /// any other text, so that one form of an id is never taken for another.
    private static func packed(_ id: String) -> TrackedID? {
        var utf8 = id.utf8.makeIterator()
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        var position = 0
        while let byte = utf8.next() {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if digits < 16 {
                halves.0 = halves.0 << 4 | UInt64(value)
            } else {
                halves.1 = halves.1 << 4 | UInt64(value)
            }
            digits += 1
            guard digits <= 32 else { return nil }
        }
        return position == 36 && digits == 32 ? .bytes(halves.0, halves.1) : nil
    }
}
