/// Reads one JSON object's members whose values are strings, numbers, `true`, `false` or `null`,
/// as ``JSONObjectWriter`` (and Foundation's `JSONEncoder`) write the journal's records; nested
/// objects and arrays are checked and kept only as ``Value/nested`` (a later version's members).
/// Opening a catalog reads the journal's last records: through `JSONDecoder`, whose first use in a
/// process sets up its generic machinery, that was ~0.5 ms of every `album` command.
///
/// What is not one JSON object is refused (`nil`): a line cut short, text after the object, a raw
/// control character or a lone surrogate in a string, nesting deeper than 64.
///
/// ```swift
/// let object = JSONObjectReader(Array(#"{"name":"a \"b\".jpg","size":12}"#.utf8))
/// try object?.string("name")  // "a \"b\".jpg"
/// try object?.int64("size")   // 12
/// ```
package struct JSONObjectReader {
    /// A member's value.
    package enum Value: Equatable {
        case string(String)
        /// A number, with its text (read exactly as an integer when it is one).
        case number(String)
        case bool(Bool)
        case null
        /// An object or an array (its content is not kept).
        case nested
    }

    /// A member holds another type than the one asked for.
    package struct TypeMismatch: Error {
        package let key: String
    }

    /// The members; the last one wins when a key repeats.
    package private(set) var members: [String: Value] = [:]
    /// Whether a key came more than once (`JSONDecoder` keeps the first, ``members`` the last).
    package private(set) var hasRepeatedKeys = false

    /// Parses `bytes`, which must hold exactly one object (whitespace around it is allowed).
    package init?(_ bytes: some Collection<UInt8>) {
        var parser = Parser(bytes: Array(bytes))
        guard let members = parser.object() else { return nil }
        self.members = members
        hasRepeatedKeys = parser.hasRepeatedKeys
    }

    /// The string `key` holds; `nil` when absent or `null`.
    package func string(_ key: String) throws(TypeMismatch) -> String? {
        switch members[key] {
        case nil, .null: return nil
        case .string(let text): return text
        default: throw TypeMismatch(key: key)
        }
    }

    /// The integer `key` holds; `nil` when absent or `null`. A number with a fraction, or out of
    /// range, is a mismatch.
    package func int64(_ key: String) throws(TypeMismatch) -> Int64? {
        switch members[key] {
        case nil, .null: return nil
        case .number(let text):
            if let exact = Int64(text) { return exact }
            guard let value = Double(text), value == value.rounded(), let exact = Int64(exactly: value) else {
                throw TypeMismatch(key: key)
            }
            return exact
        default: throw TypeMismatch(key: key)
        }
    }

    /// The number `key` holds; `nil` when absent or `null`.
    package func double(_ key: String) throws(TypeMismatch) -> Double? {
        switch members[key] {
        case nil, .null: return nil
        case .number(let text):
            guard let value = Double(text) else { throw TypeMismatch(key: key) }
            return value
        default: throw TypeMismatch(key: key)
        }
    }

    /// A recursive-descent reader over the bytes of one object.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var hasRepeatedKeys = false

        mutating func object() -> [String: Value]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipWhitespace()
                    // `JSONDecoder` takes a comma before the closing brace: so does this reader.
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}"), !members.isEmpty { break }
                    guard let key = string() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard let value = value() else { return nil }
                    if members.updateValue(value, forKey: key) != nil { hasRepeatedKeys = true }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipWhitespace()
            return index == bytes.count ? members : nil
        }

        private mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "{"), UInt8(ascii: "["): return nested(depth: 1) ? .nested : nil
            default: return nil
            }
        }

        /// Reads past a nested object or array, checking it is JSON.
        private mutating func nested(depth: Int) -> Bool {
            guard depth <= 64 else { return false }
            let isObject = take(UInt8(ascii: "{"))
            if !isObject { guard take(UInt8(ascii: "[")) else { return false } }
            let close = UInt8(ascii: isObject ? "}" : "]")
            skipWhitespace()
            if take(close) { return true }
            repeat {
                skipWhitespace()
                if isObject {
                    guard string() != nil else { return false }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                }
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") {
                    guard nested(depth: depth + 1) else { return false }
                } else {
                    guard value() != nil else { return false }
                }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            return take(close)
        }

        private mutating func number() -> Value? {
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                    UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index += 1
                default:
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    return Double(text) == nil ? nil : .number(text)
                }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return Double(text) == nil ? nil : .number(text)
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var utf8: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        utf8 += String(Character(scalar)).utf8
                    default: return nil
                    }
                case 0..<0x20: return nil  // raw control characters must be escaped
                default: utf8.append(byte)
                }
            }
            return nil  // cut short
        }

        /// The scalar of a `\u` escape and its four hex digits (read after the `u`), joining a
        /// surrogate pair; `nil` for a lone surrogate.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let first = hex4() else { return nil }
            switch first {
            case 0xD800...0xDBFF:
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let second = hex4(),
                    (0xDC00...0xDFFF).contains(second)
                else { return nil }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            case 0xDC00...0xDFFF:
                return nil
            default:
                return Unicode.Scalar(first)
            }
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let matches = word.withUTF8Buffer { Array($0) == Array(bytes[index..<index + count]) }
            if matches { index += count }
            return matches
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
            {
                index += 1
            }
        }
    }
}
