#if os(Linux)
    import CVips

    /// A picture libvips decoded (or is ready to decode): released when the last reference goes.
    /// Lives only inside one call of ``PreviewRenderer``.
    final class DecodedImage {
        let pointer: OpaquePointer

        private init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { albumkit_vips_release(pointer) }

        /// The image `make` returned, or the error libvips recorded when it returned NULL.
        static func made(_ what: String, _ make: () -> OpaquePointer?) throws(PreviewError) -> DecodedImage {
            guard let pointer = make() else { throw PreviewError(.undecodable, "\(what): \(Self.lastError())") }
            return DecodedImage(pointer)
        }

        var width: Int { Int(albumkit_vips_width(pointer)) }
        var height: Int { Int(albumkit_vips_height(pointer)) }

        /// A derived image (turned, converted) or the error.
        func derived(_ what: String, _ make: (OpaquePointer) -> OpaquePointer?) throws(PreviewError) -> DecodedImage {
            try Self.made(what) { make(pointer) }
        }

        /// The bytes an encoder or `write_to_memory` handed back (0 from the call), or the error.
        func bytes(_ what: String, _ produce: (OpaquePointer, inout UnsafeMutableRawPointer?, inout Int) -> Int32)
            throws(PreviewError) -> [UInt8]
        {
            var buffer: UnsafeMutableRawPointer?
            var count = 0
            let result = produce(pointer, &buffer, &count)
            defer { albumkit_vips_free(buffer) }
            guard result == 0, let buffer else { throw PreviewError(.undecodable, "\(what): \(Self.lastError())") }
            return Array(UnsafeRawBufferPointer(start: buffer, count: count))
        }

        /// libvips's account of the last failure, without its class names ("VipsForeignLoad: "), one
        /// line per cause. libvips keeps one error buffer for the process: a failure on another thread
        /// at the same moment may add its line.
        static func lastError() -> String {
            guard let text = albumkit_vips_take_error() else { return "libvips gave no reason" }
            defer { albumkit_vips_free(text) }
            let lines = String(cString: text).split(separator: "\n").map { line -> Substring in
                guard let colon = line.firstIndex(of: ":"), line[..<colon].allSatisfy({ $0.isLetter || $0.isNumber })
                else { return line }
                return line[line.index(after: colon)...].drop { $0 == " " }
            }
            let reasons = lines.filter { !$0.isEmpty }
            return reasons.isEmpty ? "libvips gave no reason" : reasons.joined(separator: "; ")
        }
    }
#endif
