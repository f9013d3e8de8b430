import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

/// Code that differs per platform, tested through the seam every platform shares: on Linux these
/// run OpenSSL's SHA-256, on a Mac CryptoKit's; `Media.image` runs where UIKit or AppKit exists.
@Suite struct PlatformPathTests {
    /// FIPS 180-2 test vectors, fed in pieces to exercise incremental updates.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesTheStandardVectors(input: String, expected: String) {
        let bytes = Array(input.utf8)
        #expect(bytes.withUnsafeBytes { SHA256Hasher.hash($0) } == expected)
        var hasher = SHA256Hasher()
        for piece in stride(from: 0, to: bytes.count, by: 7) {
            bytes[piece..<min(piece + 7, bytes.count)].withUnsafeBytes { hasher.update($0) }
        }
        #expect(hasher.finalize() == expected)
    }

    @Test func sha256OfAMillionBytesMatches() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    #if canImport(UIKit) && !os(watchOS)
        @Test func imageIsEncodedAsTakenWithItsOrientation() throws {
            let drawn = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 3)).image { context in
                UIColor.red.setFill()
                context.fill(CGRect(x: 0, y: 0, width: 4, height: 3))
            }
            // A camera photo held sideways: the pixels as the sensor read them, shown turned right.
            let camera = UIImage(cgImage: try #require(drawn.cgImage), scale: 1, orientation: .right)
            let heic = try MediaReader(.image(camera)).metadata
            #expect(heic.format == .heic || heic.format == .jpeg)
            let jpeg = try MediaReader(.image(camera, encoding: .jpeg, filename: "IMG_1.PNG")).metadata
            #expect(jpeg.format == .jpeg)
            #expect(jpeg.orientation == 6, "kept in the file, so the photo shows upright")
            #expect(jpeg.width == 3 && jpeg.height == 4, "as displayed")
            if case .data(_, let name) = Media.image(camera, encoding: .jpeg, filename: "IMG_1.PNG").source {
                #expect(name == "IMG_1.jpg")
            }
        }
    #elseif canImport(AppKit)
        @Test func imageIsEncodedAsHEICOrJPEG() throws {
            let image = NSImage(size: NSSize(width: 4, height: 3), flipped: false) { rect in
                NSColor.red.setFill()
                NSBezierPath(rect: rect).fill()
                return true
            }
            let metadata = try MediaReader(.image(image)).metadata
            #expect(metadata.format == .heic || metadata.format == .jpeg)
            #expect((metadata.width ?? 0) > 0)
            #expect(try MediaReader(.image(image, encoding: .jpeg)).metadata.format == .jpeg)
            #expect(Media.image(NSImage(size: .zero)).preparationError?.code == .invalidArgument)
        }
    #endif
}
