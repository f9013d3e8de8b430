/// Writes one flat JSON object, member by member, for the records made on every save (a catalog's
/// pending rows and its journal lines), where Foundation's `JSONEncoder` took 5 % of a batch's CPU.
///
/// Members are written in the order added (callers add them sorted by key, as
/// `JSONEncoder.OutputFormatting.sortedKeys` would); `nil` values and numbers JSON cannot hold
/// (infinite, NaN) are left out. Anything `JSONDecoder` reads back.
///
/// ```swift
/// var object = JSONObjectWriter()
/// object.add("name", "a \"b\".jpg")
/// object.add("size", 12 as Int64?)
/// String(decoding: object.bytes, as: UTF8.self)  // {"name":"a \"b\".jpg","size":12}
/// ```
package struct JSONObjectWriter {
    private var buffer: [UInt8] = [UInt8(ascii: "{")]
    private var isEmpty = true

    package init() { buffer.reserveCapacity(256) }

    /// The object, closed.
    package var bytes: [UInt8] { buffer + [UInt8(ascii: "}")] }

    package mutating func add(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        start(key)
        appendString(value)
    }

    package mutating func add(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        start(key)
        buffer += value.description.utf8
    }

    package mutating func add(_ key: StaticString, _ value: Int?) { add(key, value.map(Int64.init)) }

    package mutating func add(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        start(key)
        // Swift prints the shortest digits that read back as the same Double ("0.1", "1e-05",
        // "1e+20"), each a JSON number.
        buffer += value.description.utf8
    }

    private mutating func start(_ key: StaticString) {
        if !isEmpty { buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer += $0 }
        buffer += "\":".utf8
    }

    /// The lowercase hexadecimal digit of `nibble` (0–15).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private mutating func appendString(_ string: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer += "\\\"".utf8
            case UInt8(ascii: "\\"): buffer += "\\\\".utf8
            case UInt8(ascii: "\n"): buffer += "\\n".utf8
            case UInt8(ascii: "\r"): buffer += "\\r".utf8
            case UInt8(ascii: "\t"): buffer += "\\t".utf8
            case 0..<0x20:
                buffer += "\\u00".utf8
                buffer.append(Self.hexDigit(byte >> 4))
                buffer.append(Self.hexDigit(byte & 0x0F))
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
