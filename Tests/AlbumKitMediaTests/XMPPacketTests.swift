import Testing
@testable import AlbumKitMedia

/// The XMP reader on the forms writers use: attributes and elements, entities, fractional seconds,
/// dates without seconds or without a time, and names that only look alike.
@Suite struct XMPPacketTests {
    static func packet(_ body: String) -> [UInt8] {
        Array(
            """
            <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>
            <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\(body)</rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    @Test func attributesAndElements() throws {
        let attributes = try #require(
            XMPPacket(
                Self.packet(
                    "<rdf:Description exif:DateTimeOriginal=\"2024-05-01T10:20:30.25+02:00\" tiff:Make='Ben &amp; Jerry&#39;s'/>"
                )))
        #expect(attributes.captureDate == "2024-05-01T10:20:30+02:00")
        #expect(attributes.make == "Ben & Jerry's")
        let elements = try #require(
            XMPPacket(
                Self.packet(
                    "<rdf:Description><tiff:Model> X-T3 </tiff:Model><xmp:CreateDate>2024-05-01T10:20Z</xmp:CreateDate></rdf:Description>"
                )))
        #expect(elements.model == "X-T3")
        #expect(elements.captureDate == "2024-05-01T10:20:00Z")
    }

    @Test func precedenceAndRejectedDates() throws {
        let both = try #require(
            XMPPacket(
                Self.packet(
                    "<rdf:Description xmp:CreateDate='2020-01-01T00:00:00' photoshop:DateCreated='2021-02-02T02:02:02'/>"
                )))
        #expect(both.captureDate == "2021-02-02T02:02:02")
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:CreateDate='2024-05-01'/>")) == nil)
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:CreateDate='0000-00-00T00:00:00'/>")) == nil)
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:CreateDate='2024-05-01T10:20:30+2'/>")) == nil)
        // A longer name that starts the same is not the property
        #expect(XMPPacket(Self.packet("<rdf:Description tiff:MakeNote='x' xtiff:Make='y'/>")) == nil)
    }

    @Test func truncatedPacketsEndQuietly() {
        let whole = Self.packet("<rdf:Description exif:DateTimeOriginal='2024-05-01T10:20:30'><tiff:Make>Canon")
        for cut in stride(from: 0, through: whole.count, by: 7) {
            _ = XMPPacket(Array(whole[0..<cut]))
        }
        #expect(XMPPacket(whole)?.captureDate == "2024-05-01T10:20:30")
    }
}
