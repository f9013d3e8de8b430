#if os(Linux)
    import AlbumKitCore
    import CCurl
    import Foundation
    import Glibc

    /// One HTTP exchange over libcurl: the body streamed from a file range (or bytes), the response
    /// streamed into a file on success (or kept in memory), the response headers collected.
    final class HTTPTransfer {
        enum Body {
            case none
            case bytes([UInt8])
            /// `length` bytes of the file from `offset`, read with `pread` as curl asks for them.
            case file(FileSystem.Descriptor, offset: UInt64, length: UInt64)
        }

        struct Response {
            var status: Int
            var headers: [String: String]
            var body: [UInt8]
            var bodyText: String { String(decoding: body, as: UTF8.self) }
        }

        /// A transport failure (no HTTP status): connection refused, reset, timed out.
        struct TransportError: Error, CustomStringConvertible {
            let code: Int
            let message: String
            var description: String { "\(message) (curl \(code))" }

            /// The TLS handshake failed on the server's certificate (untrusted authority, wrong host
            /// name, expired) or on the bundle of authorities: nothing a retry changes.
            var isCertificateProblem: Bool { [35, 51, 53, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91].contains(code) }
        }

        private let handle: UnsafeMutableRawPointer
        private var body: Body = .none
        private var sent: UInt64 = 0
        private var sink: FileSystem.Descriptor?
        private var hasher: StreamingSHA256?
        private var written: UInt64 = 0
        private var sinkError: (any Error)?
        private var response = Response(status: 0, headers: [:], body: [])
        /// How much of a body kept in memory (no sink) is kept: the rest is read and dropped.
        private var bodyLimit = 1 << 20

        private init(handle: UnsafeMutableRawPointer) { self.handle = handle }

        /// Performs `method url` with `headers`; a 2xx body goes to `sink` when given, else its first
        /// `bodyLimit` bytes (or about that: a piece more at most) are kept in the response.
        static func perform(
            _ method: String, url: String, headers: [String: String], body: Body = .none,
            sink: FileSystem.Descriptor? = nil, hasher: StreamingSHA256? = nil, caBundle: String? = nil,
            bodyLimit: Int = 1 << 20, handles: HandlePool
        ) throws -> Response {
            let handle = try handles.take()
            var reusable = true
            defer { handles.give(handle, reusable: reusable) }
            let transfer = HTTPTransfer(handle: handle)
            transfer.body = body
            transfer.sink = sink
            transfer.hasher = hasher
            transfer.bodyLimit = bodyLimit
            do {
                return try transfer.run(method, url: url, headers: headers, caBundle: caBundle)
            } catch {
                reusable = false
                throw error
            }
        }

        private func run(_ method: String, url: String, headers: [String: String], caBundle: String?) throws
            -> Response
        {
            albumkit_curl_easy_reset(handle)
            // curl's own account of a failure ("SSL certificate problem: unable to get local issuer
            // certificate"), more precise than its error code's text.
            var details = [CChar](repeating: 0, count: 256)  // CURL_ERROR_SIZE
            let context = Unmanaged.passUnretained(self).toOpaque()
            var list: OpaquePointer?
            defer { albumkit_curl_list_free(list) }
            for (name, value) in headers { list = albumkit_curl_list_append(list, "\(name): \(value)") }
            list = albumkit_curl_list_append(list, "Expect:")  // no 100-continue round trip
            _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_URL, url)
            _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_HTTPHEADER, UnsafeRawPointer(list))
            _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_NOSIGNAL, 1)
            if let caBundle { _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_CAINFO, caBundle) }
            _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_CONNECTTIMEOUT, 5)
            // A stalled transfer (server gone silent) fails after 30 s below 1 byte/s.
            _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_LOW_SPEED_TIME, 30)
            _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_WRITEDATA, context)
            _ = albumkit_curl_set_callback(handle, ALBUMKIT_CURLOPT_WRITEFUNCTION, Self.receive)
            _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_HEADERDATA, context)
            _ = albumkit_curl_set_callback(handle, ALBUMKIT_CURLOPT_HEADERFUNCTION, Self.receiveHeader)
            switch method {
            case "GET": break
            case "HEAD": _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_NOBODY, 1)
            case "PUT":
                _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_UPLOAD, 1)
                _ = albumkit_curl_set_offset(handle, ALBUMKIT_CURLOPT_INFILESIZE_LARGE, Int64(bodyLength))
            default:
                _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_CUSTOMREQUEST, method)
                if method == "POST" {
                    _ = albumkit_curl_set_long(handle, ALBUMKIT_CURLOPT_POST, 1)
                    _ = albumkit_curl_set_offset(handle, ALBUMKIT_CURLOPT_POSTFIELDSIZE_LARGE, Int64(bodyLength))
                }
            }
            if bodyLength > 0 || method == "PUT" || method == "POST" {
                _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_READDATA, context)
                _ = albumkit_curl_set_callback(handle, ALBUMKIT_CURLOPT_READFUNCTION, Self.send)
            }
            let code = details.withUnsafeMutableBufferPointer { buffer in
                _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_ERRORBUFFER, buffer.baseAddress)
                defer { _ = albumkit_curl_set_pointer(handle, ALBUMKIT_CURLOPT_ERRORBUFFER, nil) }
                return albumkit_curl_easy_perform(handle)
            }
            if let sinkError { throw sinkError }
            guard code == ALBUMKIT_CURLE_OK else {
                let detail = String(decoding: details.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw TransportError(
                    code: Int(code),
                    message: detail.isEmpty ? String(cString: albumkit_curl_easy_strerror(code)) : detail)
            }
            response.status = albumkit_curl_response_code(handle)
            return response
        }

        private var bodyLength: UInt64 {
            switch body {
            case .none: 0
            case .bytes(let bytes): UInt64(bytes.count)
            case .file(_, _, let length): length
            }
        }

        private static let send: albumkit_curl_data_callback = { buffer, size, count, context in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
            let capacity = size * count
            let remaining = Int(min(UInt64(capacity), transfer.bodyLength - transfer.sent))
            guard remaining > 0, let buffer else { return 0 }
            switch transfer.body {
            case .none: return 0
            case .bytes(let bytes):
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(
                        from: source.baseAddress! + Int(transfer.sent), byteCount: remaining)
                }
            case .file(let file, let offset, _):
                let target = UnsafeMutableRawBufferPointer(start: buffer, count: remaining)
                do {
                    let n = try FileSystem.read(file, into: target, at: offset + transfer.sent)
                    guard n == remaining else {
                        transfer.sinkError = SystemError("read", path: file.path, errno: EIO)
                        return Int(ALBUMKIT_CURL_READFUNC_ABORT)
                    }
                } catch {
                    transfer.sinkError = error
                    return Int(ALBUMKIT_CURL_READFUNC_ABORT)
                }
            }
            transfer.sent += UInt64(remaining)
            return remaining
        }

        private static let receive: albumkit_curl_data_callback = { buffer, size, count, context in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let buffer else { return length }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
            let status = albumkit_curl_response_code(transfer.handle)
            if (200..<300).contains(status), transfer.sink != nil || transfer.hasher != nil {
                if let sink = transfer.sink {
                    do { try FileSystem.write(sink, bytes) } catch {
                        transfer.sinkError = error
                        return 0  // aborts the transfer
                    }
                }
                transfer.hasher?.update(bytes)
                transfer.written += UInt64(length)
            } else if transfer.response.body.count < transfer.bodyLimit {
                transfer.response.body.append(contentsOf: bytes)
            }
            return length
        }

        private static let receiveHeader: albumkit_curl_data_callback = { buffer, size, count, context in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let buffer else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                transfer.response.headers = [:]  // a new response (after a redirect or 100)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                transfer.response.headers[name] = value
            }
            return length
        }
    }

    /// Reusable curl handles (each keeps its connections alive), shared by the threads of one client.
    final class HandlePool: Sendable {
        private let idle = Locked<[UnsafeMutableRawPointer]>([])

        init() {}

        deinit {
            idle.withLock { handles in handles.forEach { albumkit_curl_easy_cleanup($0) } }
        }

        func take() throws -> UnsafeMutableRawPointer {
            if let handle = idle.withLock({ $0.popLast() }) { return handle }
            guard let handle = albumkit_curl_easy_init() else {
                let reason =
                    albumkit_curl_load() == 0
                    ? "libcurl could not create a handle" : String(cString: albumkit_curl_load_error())
                throw HTTPTransfer.TransportError(code: -1, message: reason)
            }
            return handle
        }

        func give(_ handle: UnsafeMutableRawPointer, reusable: Bool) {
            guard reusable else {
                albumkit_curl_easy_cleanup(handle)
                return
            }
            idle.withLock { $0.append(handle) }
        }
    }
#endif
