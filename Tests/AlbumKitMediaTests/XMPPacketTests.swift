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

    /// The lens under Lightroom's name or EXIF 2.3's, and the rating: whole stars, a fraction
    /// rounded down, a rejected photo's -1; a number out of range is no rating.
    @Test func lensAndRating() throws {
        let lightroom = try #require(
            XMPPacket(Self.packet("<rdf:Description aux:Lens='RF24-105mm F4 L IS USM' xmp:Rating='4'/>")))
        #expect(lightroom.lens == "RF24-105mm F4 L IS USM")
        #expect(lightroom.rating == 4)
        let cipa = try #require(
            XMPPacket(
                Self.packet("<rdf:Description><exifEX:LensModel>XF35mmF1.4 R</exifEX:LensModel></rdf:Description>")))
        #expect(cipa.lens == "XF35mmF1.4 R")
        #expect(cipa.rating == nil)
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:Rating='3.5'/>"))?.rating == 3)
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:Rating='-1'/>"))?.rating == -1)
        #expect(XMPPacket(Self.packet("<rdf:Description xmp:Rating='7'/>")) == nil)
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

    /// Photoshop CS wrote the `xmp` namespace as `xap:`; any declared prefix of a known namespace
    /// counts, an undeclared one or another namespace's does not. Apple's `GMT+02:00` zone is read.
    @Test func declaredPrefixesAndApplesZone() throws {
        let xap = try #require(
            XMPPacket(
                Self.packet(
                    "<rdf:Description rdf:about='' xmlns:xap='http://ns.adobe.com/xap/1.0/'><xap:CreateDate>2009-03-06T22:15:00+01:00</xap:CreateDate></rdf:Description>"
                )))
        #expect(xap.captureDate == "2009-03-06T22:15:00+01:00")
        let cam = try #require(
            XMPPacket(
                Self.packet(
                    "<rdf:Description xmlns:t = \"http://ns.adobe.com/tiff/1.0/\" t:Make='Canon'/>")))
        #expect(cam.make == "Canon")
        #expect(XMPPacket(Self.packet("<rdf:Description xap:CreateDate='2009-03-06T22:15:00'/>")) == nil)
        #expect(
            XMPPacket(
                Self.packet(
                    "<rdf:Description xmlns:xap='http://example.com/other/' xap:CreateDate='2009-03-06T22:15:00'/>"))
                == nil)
        let apple = XMPPacket(Self.packet("<rdf:Description xmp:CreateDate='2024-04-22T14:38:09.526GMT+02:00'/>"))
        #expect(apple?.captureDate == "2024-04-22T14:38:09+02:00")
        #expect(
            XMPPacket(Self.packet("<rdf:Description xmp:CreateDate='2024-04-22T14:38:09GMT'/>"))?.captureDate
                == "2024-04-22T14:38:09Z")
        // Declarations cut anywhere end quietly.
        let whole = Array("xmlns:xap='http://ns.adobe.com/xap/1.0/' xap:CreateDate='2009-03-06T22:15:00'".utf8)
        for cut in 0...whole.count { _ = XMPPacket.declaredPrefixes(in: Array(whole[0..<cut])) }
        #expect(XMPPacket.declaredPrefixes(in: whole) == ["xmp": ["xap"]])
        // Unclosed URIs and thousands of declarations cost a bounded search each; the 16 prefixes
        // kept for a namespace are the first ones declared.
        let unclosed = Array(String(repeating: "xmlns:a='http://ns.adobe.com/xap/1.0/", count: 5000).utf8)
        #expect(XMPPacket.declaredPrefixes(in: unclosed).isEmpty)
        let many = Array((0..<300).map { "xmlns:p\($0)='http://ns.adobe.com/xap/1.0/' " }.joined().utf8)
        #expect(XMPPacket.declaredPrefixes(in: many)["xmp"] == (0..<16).map { "p\($0)" })
    }

    @Test func truncatedPacketsEndQuietly() {
        let whole = Self.packet("<rdf:Description exif:DateTimeOriginal='2024-05-01T10:20:30'><tiff:Make>Canon")
        for cut in stride(from: 0, through: whole.count, by: 7) {
            _ = XMPPacket(Array(whole[0..<cut]))
        }
        #expect(XMPPacket(whole)?.captureDate == "2024-05-01T10:20:30")
    }
}
