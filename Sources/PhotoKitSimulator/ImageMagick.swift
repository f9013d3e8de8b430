#if !canImport(ObjectiveC)
    import Foundation

    /// The simulator's image decoder and encoder: ImageMagick's `convert`, run as a process (Photos
    /// decodes itself; the simulator links no image library). Where `convert` is missing or fails,
    /// nothing is decoded and image requests deliver `nil` with an error, as Photos does for an
    /// image it cannot render.
    enum ImageMagick {
        /// `input` (a whole image file) run through `convert` with `arguments`, written as `format`
        /// (`png`, `jpg`); `nil` when `convert` failed.
        static func convert(_ input: Data, _ arguments: [String], to format: String) -> Data? {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "PhotoKitSimulator-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                return nil
            }
            defer {
                // A scratch folder of this call only: leaving it behind costs a little space, nothing else.
                try? FileManager.default.removeItem(at: folder)
            }
            let source = folder.appendingPathComponent("input")
            guard (try? input.write(to: source)) != nil else { return nil }  // no scratch space: nothing decoded
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["convert", source.path + "[0]"] + arguments + ["\(format):-"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }  // no `convert`: nothing decoded
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0, !data.isEmpty else { return nil }
            return data
        }

        /// The pixel size in a PNG file's header.
        static func pngSize(_ png: Data) -> (width: Int, height: Int)? {
            let bytes = [UInt8](png.prefix(24))
            guard bytes.count == 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
            func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return (number(16), number(20))
        }
    }
#endif
