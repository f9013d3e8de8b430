import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// SHA-256 as saves compute it: the standard's examples, and, on Linux, the processor's SHA
/// instructions against OpenSSL's libcrypto on the same bytes fed in every way a copy feeds them.
@Suite struct SHA256HasherTests {
    /// FIPS 180-4's examples (NIST's SHA-256 example values), and the empty message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownDigests(message: String, digest: String) {
        #expect(Array(message.utf8).withUnsafeBytes { SHA256Hasher.hash($0) } == digest)
    }

    @Test func aMillionAs() {
        var hasher = SHA256Hasher()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { thousand.withUnsafeBytes { hasher.update($0) } }
        #expect(hasher.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    #if !canImport(CryptoKit)
        /// Lengths around every padding boundary, then larger random ones, each fed whole and in
        /// random pieces (as a copy's reads split a file): both ways must agree with libcrypto.
        @Test func theProcessorsInstructionsAgreeWithLibcrypto() throws {
            try SHA256Hasher.requireLibrary(to: "compare SHA-256 with libcrypto")
            var generator = SystemRandomNumberGenerator()
            let lengths = Array(0...200) + [447, 448, 511, 512, 513, 4095, 4096, 65_536, 1 << 20, 3_000_001]
            for length in lengths {
                let bytes = RandomBytes.make(length)
                var library = SHA256Hasher(usingProcessor: false)
                var processor = SHA256Hasher()
                var pieces = SHA256Hasher()
                bytes.withUnsafeBytes { all in
                    library.update(all)
                    processor.update(all)
                    var offset = 0
                    while offset < all.count {
                        let take = min(all.count - offset, Int.random(in: 0...150, using: &generator))
                        pieces.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset + take]))
                        offset += take
                    }
                }
                let expected = library.finalize()
                #expect(processor.finalize() == expected, "length \(length), whole")
                #expect(pieces.finalize() == expected, "length \(length), in pieces")
            }
        }

        /// x86-64 processors from the last years have the instructions (this one does when its
        /// `/proc/cpuinfo` lists `sha_ni`); the hasher must use them there, or saves load libcrypto.
        @Test func usesTheProcessorWhereItHasSHAInstructions() throws {
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let listsSHA = cpuinfo.split(separator: "\n").contains {
                $0.hasPrefix("flags") && $0.split(separator: " ").contains("sha_ni")
            }
            #expect(SHA256Hasher.runsOnProcessor == listsSHA)
        }
    #endif
}
