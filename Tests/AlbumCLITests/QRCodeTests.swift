#if os(Linux)
    import AlbumServer
    import AlbumTestSupport
    import Foundation
    import Testing

    /// `album serve`'s QR code against segno's (a QR encoder from PyPI): the same text, version,
    /// level and mask give the same modules, for every mask and for versions with one block, two
    /// blocks and version information.
    @Suite("QR code of the link", .onThreadsOfTheirOwn)
    struct QRCodeTests {
        /// A Python with segno: the one `.ci/run` installs it into, else one on the PATH.
        static func segnoPython() -> String? {
            ExternalTool.python(
                importing: "segno",
                preferring: [CLI.packageRoot.appendingPathComponent(".build/playwright-venv/bin/python3").path])
        }

        /// segno's modules for `text` at `version`, level L, `mask`, byte mode: one line of 0 and 1 a row.
        static func segno(_ python: String, _ text: String, version: Int, mask: Int) throws -> [[Bool]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [
                "-c",
                """
                import sys, segno
                from segno import encoder
                # segno 1.6 adds a byte of zeros after a terminator that ends on a byte boundary (always,
                # in byte mode) where the standard goes straight to the pad bytes; decoders read neither.
                # Patched here so that the two encoders can be compared module for module.
                padding = encoder.write_padding_bits
                encoder.write_padding_bits = lambda buff, version, length: padding(buff, version, length) if length % 8 else None
                code = segno.make(sys.argv[1], error='l', mode='byte', boost_error=False, version=int(sys.argv[2]), mask=int(sys.argv[3]))
                for row in code.matrix: print(''.join('1' if m else '0' for m in row))
                """,
                text, String(version), String(mask),
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output.split(separator: "\n").map { $0.map { $0 == "1" } }
        }

        @Test(
            "Every mask, versions 1 to 9 (one block, two blocks, version information), as segno makes them",
            arguments: [
                "HELLO", "http://127.0.0.1:8080/?token=" + String(repeating: "0123456789abcdef", count: 4),
                "https://[fd00::1234:5678:9abc:def0]:8443/?token=" + String(repeating: "f", count: 64),
                "https://photos.example.org/?token=" + String(repeating: "ab", count: 32) + "&"
                    + String(repeating: "x", count: 90),
            ])
        func sameAsSegno(text: String) throws {
            let python = Self.segnoPython()
            try ExternalTool.requireAvailable(
                python != nil, "segno for Python", install: "pip install segno, in .build/playwright-venv")
            for mask in 0..<8 {
                let ours = try QRCode(text: text, mask: mask)
                let theirs = try Self.segno(python!, text, version: ours.version, mask: mask)
                #expect(ours.modules == theirs, "version \(ours.version), mask \(mask): the modules differ")
            }
            let chosen = try QRCode(text: text)
            #expect((0..<8).contains(chosen.mask))
            #expect(chosen.terminalText.split(separator: "\n").count == (chosen.size + 4 + 1) / 2)
        }

        @Test func textOver230BytesIsRefused() {
            #expect(throws: QRCode.TooLong.self) { try QRCode(text: String(repeating: "a", count: 231)) }
            #expect(throws: Never.self) { try QRCode(text: String(repeating: "a", count: 230)) }
        }
    }
#endif
