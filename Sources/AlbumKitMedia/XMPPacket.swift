#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// The fields AlbumKit reads from an XMP packet (Adobe's RDF/XML metadata, as Lightroom, Photoshop
/// and cameras embed it in JPEG, PNG, TIFF, HEIF and MP4 files).
///
/// Properties are found by their usual prefixes (`exif:`, `photoshop:`, `xmp:`, `tiff:`) or by the
/// prefix the packet declares for their namespace (`xap:` in Photoshop CS's packets), written
/// either as attributes (`exif:DateTimeOriginal="…"`) or as elements
/// (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`); no XML tree is built. A packet is read
/// only up to ``maxBytes``. XMP's `tiff:Orientation` is not read: viewers turn a picture by its
/// EXIF orientation only.
struct XMPPacket: Equatable {
    static let maxBytes = 1 << 20

    /// The capture date: `exif:DateTimeOriginal`, else `photoshop:DateCreated`, else `xmp:CreateDate`,
    /// as ISO 8601 (seconds added when the packet has only minutes; none when it has only a day).
    var captureDate: String?
    var make: String?
    var model: String?
    /// The lens: `aux:Lens` (Lightroom, Photoshop), else `exifEX:LensModel` (the EXIF 2.3 name).
    var lens: String?
    /// `xmp:Rating`: 0 to 5 stars, -1 for a photo rejected (Lightroom, darktable, digiKam).
    var rating: Int?

    /// The `XMP` APP1 signature of a JPEG segment, before the packet.
    static let jpegSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The `uuid` box type of an XMP packet in ISO media files (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC).
    static let uuid: [UInt8] = [
        0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
    ]

    /// The namespaces of the properties read, by their usual prefix.
    static let namespaces = [
        "exif": "http://ns.adobe.com/exif/1.0/", "photoshop": "http://ns.adobe.com/photoshop/1.0/",
        "xmp": "http://ns.adobe.com/xap/1.0/", "tiff": "http://ns.adobe.com/tiff/1.0/",
        "aux": "http://ns.adobe.com/exif/1.0/aux/", "exifEX": "http://cipa.jp/exif/1.0/",
    ]

    /// Reads `bytes` (an XMP packet in UTF-8); `nil` when it holds none of the fields.
    init?(_ bytes: [UInt8]) {
        let text = bytes.count > Self.maxBytes ? Array(bytes[0..<Self.maxBytes]) : bytes
        let prefixes = Self.declaredPrefixes(in: text)
        // A property under its usual prefix, else under the one the packet declares for its
        // namespace (Photoshop CS and older write `xap:CreateDate`).
        func property(_ prefix: String, _ name: String) -> String? {
            for declared in [prefix] + (prefixes[prefix] ?? []) {
                if let value = Self.property(declared + ":" + name, in: text) { return value }
            }
            return nil
        }
        for (prefix, name) in [("exif", "DateTimeOriginal"), ("photoshop", "DateCreated"), ("xmp", "CreateDate")] {
            if let value = property(prefix, name).flatMap(Self.isoDate) {
                captureDate = value
                break
            }
        }
        make = property("tiff", "Make")?.trimmingSpaces.nilIfEmpty
        model = property("tiff", "Model")?.trimmingSpaces.nilIfEmpty
        lens = (property("aux", "Lens") ?? property("exifEX", "LensModel"))?.trimmingSpaces.nilIfEmpty
        // Lightroom writes whole stars; a fraction (some DAMs) counts as the stars below it.
        rating = property("xmp", "Rating").flatMap { Double($0.trimmingSpaces) }.flatMap {
            $0.isFinite && $0 >= -1 && $0 <= 5 ? Int($0.rounded(.down)) : nil
        }
        if captureDate == nil && make == nil && model == nil && lens == nil && rating == nil { return nil }
    }

    /// The other prefixes `text` declares (`xmlns:xap="http://ns.adobe.com/xap/1.0/"`) for the
    /// namespaces of ``namespaces``, by their usual prefix: at most 16 each, among the first 256
    /// declarations, each URI at most 256 bytes (a packet's cost stays bounded whatever it holds).
    static func declaredPrefixes(in text: [UInt8]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        let byURI = Dictionary(uniqueKeysWithValues: namespaces.map { ($0.value, $0.key) })
        let key = Array("xmlns:".utf8)
        var from = 0
        var declarations = 0
        while declarations < 256, let at = find(key, in: text, from: from) {
            declarations += 1
            var i = at + key.count
            let nameStart = i
            while i < text.count, isNameByte(text[i]), text[i] != UInt8(ascii: ":") { i += 1 }
            from = i
            let name = String(decoding: text[nameStart..<i], as: UTF8.self)
            while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
            guard !name.isEmpty, i < text.count, text[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
            guard i < text.count, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { continue }
            let quote = text[i]
            var end = i + 1
            while end < min(text.count, i + 258), text[end] != quote { end += 1 }
            guard end < text.count, text[end] == quote else { continue }
            let uri = String(decoding: text[i + 1..<end], as: UTF8.self)
            if let usual = byURI[uri], name != usual, (found[usual]?.count ?? 0) < 16,
                !(found[usual] ?? []).contains(name)
            {
                found[usual, default: []].append(name)
            }
            from = end
        }
        return found
    }

    /// The text value of property `name`, from its attribute or its element.
    static func property(_ name: String, in text: [UInt8]) -> String? {
        let key = Array(name.utf8)
        var from = 0
        while let at = find(key, in: text, from: from) {
            from = at + key.count
            // The name must stand alone: not the tail of a longer name, not followed by more letters.
            if at > 0, isNameByte(text[at - 1]) { continue }
            var i = at + key.count
            guard i < text.count, !isNameByte(text[i]) else { continue }
            if at > 0, text[at - 1] == UInt8(ascii: "<") {
                // <name …>value</name>
                while i < text.count, text[i] != UInt8(ascii: ">") { i += 1 }
                guard i < text.count, text[i - 1] != UInt8(ascii: "/") else { continue }
                let start = i + 1
                guard let end = find([UInt8(ascii: "<")], in: text, from: start) else { return nil }
                let value = decodeEntities(Array(text[start..<end]))
                if !value.trimmingSpaces.isEmpty { return value }
                continue
            }
            // name="value" or name='value'
            while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
            guard i < text.count, text[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
            guard i < text.count, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { continue }
            let quote = text[i]
            guard let end = find([quote], in: text, from: i + 1) else { return nil }
            return decodeEntities(Array(text[i + 1..<end]))
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// The first index of `needle` in `haystack` at or after `from`, found by `memchr` jumps to
    /// its first byte.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard from >= 0, !needle.isEmpty, from + needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { key -> Int? in
                guard let base = hay.baseAddress, let keyBase = key.baseAddress else { return nil }
                var position = from
                let last = hay.count - key.count
                while position <= last,
                    let hit = memchr(base + position, Int32(key[0]), last - position + 1)
                {
                    let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, keyBase, key.count) == 0 { return index }
                    position = index + 1
                }
                return nil
            }
        }
    }

    /// XML's five named entities and numeric character references.
    static func decodeEntities(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += rest[amp...]
                return result
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number: UInt32? =
                    entity.hasPrefix("#x") || entity.hasPrefix("#X")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    /// XMP's date (`2024-05-01T10:20:30.25+02:00`, `2024-05-01T10:20Z`) as AlbumKit writes dates
    /// (`2024-05-01T10:20:30+02:00`); `nil` without a time of day.
    static func isoDate(_ text: String) -> String? {
        let c = Array(text.trimmingSpaces.utf8)
        let isDigit = { (i: Int) in i < c.count && c[i] >= 0x30 && c[i] <= 0x39 }
        guard c.count >= 16, [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15].allSatisfy(isDigit),
            c[4] == UInt8(ascii: "-") || c[4] == UInt8(ascii: ":"), c[7] == c[4],
            c[10] == UInt8(ascii: "T") || c[10] == UInt8(ascii: " "), c[13] == UInt8(ascii: ":")
        else { return nil }
        var i = 16
        var seconds = "00"
        if i < c.count, c[i] == UInt8(ascii: ":") {
            guard isDigit(i + 1), isDigit(i + 2) else { return nil }
            seconds = String(decoding: c[i + 1...i + 2], as: UTF8.self)
            i += 3
            if i < c.count, c[i] == UInt8(ascii: ".") {
                i += 1
                while isDigit(i) { i += 1 }
            }
        }
        var zone = String(decoding: c[i...], as: UTF8.self)
        // Apple writes `GMT+02:00` (and `GMT` alone for UTC).
        if zone.hasPrefix("GMT") || zone.hasPrefix("UTC") {
            zone = zone.count == 3 ? "Z" : String(zone.dropFirst(3))
        }
        let offset: String
        if zone.isEmpty {
            offset = ""
        } else if let valid = TIFFReader.offset(zone) {
            offset = valid
        } else {
            return nil
        }
        let date =
            String(decoding: c[0..<4], as: UTF8.self) + "-" + String(decoding: c[5..<7], as: UTF8.self)
            + "-" + String(decoding: c[8..<10], as: UTF8.self)
        guard !date.hasPrefix("0000"), !date.hasSuffix("-00"), !date.contains("-00-") else { return nil }
        return date + "T" + String(decoding: c[11..<16], as: UTF8.self) + ":" + seconds + offset
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension EXIFInfo {
    /// Fills what the EXIF block lacks from an XMP packet (EXIF wins where both have a value, as
    /// exiftool's preferred group does).
    mutating func merge(_ xmp: XMPPacket?) {
        guard let xmp else { return }
        captureDate = captureDate ?? xmp.captureDate
        make = make ?? xmp.make
        model = model ?? xmp.model
        lens = lens ?? xmp.lens
        rating = rating ?? xmp.rating
    }
}

extension MediaMetadata {
    /// Takes the rating, and the lens the file itself does not name, from the XMP sidecar written
    /// beside it (`IMG_0001.CR2.xmp`): editors write a raw's rating there, never into the raw, and
    /// the sidecar is the later word on a JPEG's too.
    ///
    /// ```swift
    /// metadata.fill(fromSidecar: Array(try Data(contentsOf: xmpURL)))
    /// ```
    package mutating func fill(fromSidecar bytes: [UInt8]) {
        guard let xmp = XMPPacket(bytes) else { return }
        lens = lens ?? xmp.lens
        rating = xmp.rating ?? rating
    }
}
