extension ISOBMFFParser {
    private struct Location {
        var method: UInt16
        var extents: [(offset: UInt64, length: UInt64)]
    }

    func readImage(_ meta: ISOBox, into metadata: inout MediaMetadata) throws(MediaInspectionError) {
        let head = try reader.require(
            at: meta.payload, count: Int(min(meta.payloadLength, 8)), what: "\(name) meta box")
        let isFullBox = head.fourCC(4) != "hdlr"
        let start = meta.payload + (isFullBox ? 4 : 0)
        guard start <= meta.end else { throw corrupt("\(name) meta box is too short") }
        var primary: UInt32?
        var itemTypes: [UInt32: String] = [:]
        var itemOrder: [UInt32] = []
        var properties: [ISOBox] = []
        var associations: [UInt32: [Int]] = [:]
        var locations: [UInt32: Location] = [:]
        var idat: ISOBox?
        for box in try children(start, meta.end, parent: "meta") {
            switch box.type {
            case "pitm":
                let data = try payload(box, max: 8)
                primary = data.first == 0 ? UInt32(data.u16(4)) : data.u32(4)
            case "iinf":
                let data = try payload(box, max: 8)
                let entriesStart = box.payload + (data.first == 0 ? 6 : 8)
                guard entriesStart <= box.end else { throw corrupt("\(name) iinf box is too short") }
                for infe in try children(entriesStart, box.end, parent: "iinf") where infe.type == "infe" {
                    guard itemOrder.count < Self.maxItems else { throw corrupt("\(name) has too many items") }
                    let entry = try payload(infe, max: 256)
                    guard let version = entry.first, version >= 2, entry.count >= (version == 2 ? 12 : 14) else {
                        continue
                    }
                    let id = version == 2 ? UInt32(entry.u16(4)) : entry.u32(4)
                    let typeOffset = version == 2 ? 8 : 10
                    var type = entry.fourCC(typeOffset)
                    if type == "mime" {
                        // item_name, then content_type, each ending with a NUL.
                        let nameEnd = entry[(typeOffset + 4)...].firstIndex(of: 0) ?? entry.count
                        if nameEnd + 1 < entry.count,
                            entry[(nameEnd + 1)...].starts(with: Array("application/rdf+xml".utf8))
                        {
                            type = "XMP "
                        }
                    }
                    itemTypes[id] = type
                    itemOrder.append(id)
                }
            case "iloc":
                locations = try parseLocations(try payload(box))
            case "idat":
                idat = box
            case "iprp":
                for child in try children(box.payload, box.end, parent: "iprp") {
                    if child.type == "ipco" {
                        properties = try children(child.payload, child.end, parent: "ipco")
                    } else if child.type == "ipma" {
                        associations = parseAssociations(try payload(child))
                    }
                }
            default:
                break
            }
        }
        guard let primaryID = primary ?? itemOrder.first else { throw corrupt("\(name) has no primary image item") }
        // Image data that iloc places in the file must be in the file.
        for (id, location) in locations where location.method == 0 {
            for extent in location.extents where !reader.contains(extent.offset, extent.length) {
                throw corrupt("\(name) item \(id) data at offset \(extent.offset) runs past the end of the file")
            }
        }
        var width: Int?
        var height: Int?
        var rotation: Int?
        var mirrored = false
        for index in associations[primaryID] ?? [] where index >= 1 && index <= properties.count {
            let property = properties[index - 1]
            switch property.type {
            case "ispe":
                let data = try payload(property, max: 12)
                if data.count >= 12 {
                    width = Int(data.u32(4))
                    height = Int(data.u32(8))
                }
            case "irot":
                if let angle = try payload(property, max: 1).first { rotation = Int(angle & 3) * 90 }
            case "imir":
                mirrored = true
            default:
                break
            }
        }
        var exif: EXIFInfo?
        if let exifID = itemOrder.first(where: { itemTypes[$0] == "Exif" }), let location = locations[exifID] {
            // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
            exif = try? readExifItem(location, idat: idat)
        }
        var xmp: XMPPacket?
        if let xmpID = itemOrder.first(where: { itemTypes[$0] == "XMP " }), let location = locations[xmpID],
            // XMP is an extra too: an unreadable packet leaves its details out.
            let data = try? itemData(location, idat: idat, limit: XMPPacket.maxBytes)
        {
            xmp = XMPPacket(data)
        }
        if exif != nil || xmp != nil {
            var info = exif ?? EXIFInfo()
            info.merge(xmp)
            info.apply(to: &metadata)
        }
        if rotation != nil || mirrored {
            // irot/imir are the HEIF display transform; EXIF orientation is informational then.
            let quarter = rotation == 90 || rotation == 270
            metadata.width = quarter ? height : width
            metadata.height = quarter ? width : height
        } else {
            metadata.setSize(width: width, height: height, orientation: exif?.orientation)
        }
    }

    private func parseLocations(_ data: [UInt8]) throws(MediaInspectionError) -> [UInt32: Location] {
        guard data.count >= 8 else { throw corrupt("\(name) iloc box is too short") }
        let version = data[0]
        let offsetSize = Int(data[4] >> 4)
        let lengthSize = Int(data[4] & 0xF)
        let baseSize = Int(data[5] >> 4)
        let indexSize = version >= 1 ? Int(data[5] & 0xF) : 0
        let sizes = [offsetSize, lengthSize, baseSize, indexSize]
        guard version <= 2, sizes.allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw corrupt("\(name) iloc box has an unsupported layout")
        }
        var i = 6
        let itemCount: Int
        if version < 2 {
            itemCount = Int(data.u16(i))
            i += 2
        } else {
            itemCount = Int(data.u32(i))
            i += 4
        }
        guard itemCount <= Self.maxItems else { throw corrupt("\(name) has too many items") }
        var result: [UInt32: Location] = [:]
        for _ in 0..<itemCount {
            let id: UInt32
            if version < 2 {
                id = UInt32(data.u16(i))
                i += 2
            } else {
                id = data.u32(i)
                i += 4
            }
            var method: UInt16 = 0
            if version >= 1 {
                method = data.u16(i) & 0xF
                i += 2
            }
            i += 2  // data_reference_index
            let base = data.uint(i, width: baseSize)
            i += baseSize
            let extentCount = Int(data.u16(i))
            i += 2
            guard i + extentCount * (indexSize + offsetSize + lengthSize) <= data.count else {
                throw corrupt("\(name) iloc box runs past its end")
            }
            var extents: [(UInt64, UInt64)] = []
            for _ in 0..<extentCount {
                i += indexSize
                let offset = data.uint(i, width: offsetSize)
                i += offsetSize
                let length = data.uint(i, width: lengthSize)
                i += lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                if overflow { throw corrupt("\(name) item \(id) has an invalid offset") }
                extents.append((start, length))
            }
            if result[id] == nil { result[id] = Location(method: method, extents: extents) }
        }
        return result
    }

    private func parseAssociations(_ data: [UInt8]) -> [UInt32: [Int]] {
        guard data.count >= 8 else { return [:] }
        let version = data[0]
        let wide = data[3] & 1 == 1
        let count = Int(data.u32(4))
        var i = 8
        var result: [UInt32: [Int]] = [:]
        for _ in 0..<min(count, Self.maxItems) {
            guard i + (version < 1 ? 3 : 5) <= data.count else { break }
            let id: UInt32
            if version < 1 {
                id = UInt32(data.u16(i))
                i += 2
            } else {
                id = data.u32(i)
                i += 4
            }
            let associationCount = Int(data[i])
            i += 1
            var indexes: [Int] = []
            for _ in 0..<associationCount {
                guard i + (wide ? 2 : 1) <= data.count else { break }
                if wide {
                    indexes.append(Int(data.u16(i) & 0x7FFF))
                    i += 2
                } else {
                    indexes.append(Int(data[i] & 0x7F))
                    i += 1
                }
            }
            if result[id] == nil { result[id] = indexes }
        }
        return result
    }

    private func readExifItem(_ location: Location, idat: ISOBox?) throws(MediaInspectionError) -> EXIFInfo? {
        guard let data = try itemData(location, idat: idat, limit: ByteReader.maxRead), data.count > 4 else {
            return nil
        }
        let tiffStart = 4 + Int(data.u32(0))
        guard tiffStart < data.count else { return nil }
        var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: Array(data[tiffStart...]))), strict: false)
        return try tiff.read()
    }

    /// An item's bytes (its extents, in the file or in `idat`), or `nil` past `limit` or the file's end.
    private func itemData(_ location: Location, idat: ISOBox?, limit: Int) throws(MediaInspectionError) -> [UInt8]? {
        var data: [UInt8] = []
        for extent in location.extents {
            var offset = extent.offset
            var length = extent.length
            if location.method == 1 {
                guard let idat else { return nil }
                offset = idat.payload &+ extent.offset
                if length == 0 { length = idat.end &- offset }
                guard offset >= idat.payload, offset <= idat.end, length <= idat.end - offset else { return nil }
            } else if location.method != 0 {
                return nil
            }
            guard length > 0, UInt64(data.count) + length <= UInt64(limit),
                let bytes = try reader.bytes(at: offset, count: Int(length))
            else { return nil }
            data += bytes
        }
        return data
    }
}
