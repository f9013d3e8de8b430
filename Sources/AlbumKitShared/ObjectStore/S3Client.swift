#if os(Linux)
    import AlbumKitCore
    import Foundation
    import Glibc

    /// The S3 calls the shared library needs, signed with ``SignatureV4`` and sent over libcurl:
    /// conditional, checksummed PUT (multipart above ``multipartThreshold``), streamed GET, HEAD,
    /// DELETE and listing. Transient failures (refused or dropped connections, 5xx, `SlowDown`) are
    /// retried with exponential backoff until ``retryWindow`` has passed.
    final class S3Client: Sendable {
        let location: ObjectStoreLocation
        private let signer: SignatureV4
        /// The `Host` of every request (`bucket.host` with virtual-hosted addressing).
        private let host: String
        /// `scheme://host[:port]` that paths are appended to.
        private let base: String
        /// The certificate authorities an `https://` store is checked against.
        let trust: ObjectStoreTrust
        private let handles = HandlePool()
        /// How many requests of each method (`GET`, `PUT`, `HEAD`…) were sent, each counted once
        /// however often it was retried: what tests and measurements count.
        let sentRequests = Locked<[String: Int]>([:])
        /// How long transient failures are retried before giving up.
        let retryWindow: TimeInterval
        /// Files larger than this are uploaded in parts (see ``parts(of:)``): ``defaultMultipartThreshold`` by default.
        let multipartThreshold: UInt64
        /// The libraries' ``multipartThreshold``: 200 MiB.
        static let defaultMultipartThreshold: UInt64 = 200 << 20
        /// The smallest part (S3 allows 5 MiB and up, the last part excepted).
        let partSize: UInt64
        /// Parts in flight at once for one multipart upload, each on its own kept-alive connection.
        static let partConnections = 8

        init(
            location: ObjectStoreLocation, credentials: ObjectStoreCredentials, retryWindow: TimeInterval = 60,
            trust: ObjectStoreTrust = ObjectStoreTrust(), multipartThreshold: UInt64 = defaultMultipartThreshold,
            partSize: UInt64 = 8 << 20
        ) throws {
            self.location = try location.validated()
            self.trust = trust
            let url = URL(string: location.endpoint)!
            let name = location.addressing == .virtual ? "\(location.bucket).\(url.host!)" : url.host!
            host = url.port.map { "\(name):\($0)" } ?? name
            base = "\(url.scheme!)://\(host)\(url.path == "/" ? "" : url.path)"
            signer = SignatureV4(
                accessKey: credentials.accessKey, secretKey: credentials.secretKey,
                sessionToken: credentials.sessionToken, region: location.region)
            self.retryWindow = retryWindow
            self.multipartThreshold = multipartThreshold
            self.partSize = max(5 << 20, partSize)
        }

        /// The full key of `name` under the library's prefix.
        func key(_ name: String) -> String { location.prefix + name }

        // MARK: Objects

        /// Uploads `length` bytes of `file` as `key` unless an object with that key exists
        /// (`If-None-Match: *`); the server checks the SHA-256 (a multipart upload's parts: their MD5).
        /// Returns `false` when the object was already there. Files up to ``multipartThreshold`` go in
        /// one PUT, as rclone's 200 MiB cut-off does: it needs no hashing beyond the staged SHA-256.
        /// `replacing`: overwrite the object (a damaged copy) instead of keeping what is there.
        @discardableResult
        func put(
            key: String, file: FileSystem.Descriptor, length: UInt64, sha256: String, contentType: String? = nil,
            replacing: Bool = false
        ) throws -> Bool {
            if length > multipartThreshold {
                return try putMultipart(
                    key: key, file: file, length: length, sha256: sha256, contentType: contentType,
                    replacing: replacing)
            }
            // The body is guarded by its SHA-256 twice (the signed `x-amz-content-sha256` and
            // `x-amz-checksum-sha256`), both known from staging: no `Content-MD5`, whose pass over
            // the file cost a 189 MB video 0.3 s before the first byte went.
            var headers = [
                "x-amz-checksum-sha256": Data(Digests.bytes(fromHex: sha256)).base64EncodedString(),
                "content-length": String(length),
            ]
            if !replacing { headers["if-none-match"] = "*" }
            if let contentType { headers["content-type"] = contentType }
            let response = try send(
                "PUT", key: key, headers: headers, body: .file(file, offset: 0, length: length), payloadHash: sha256,
                accept: [200, 412])
            return response.status == 200
        }

        /// Uploads `bytes` as `key`, replacing whatever object is there (a PUT replaces an object
        /// whole or not at all: a reader sees the old bytes or the new ones, never part of them); the
        /// store checks their SHA-256. For small objects made in memory (thumbnails and previews).
        func put(key: String, bytes: [UInt8], contentType: String) throws {
            let sha256 = SignatureV4.sha256Hex(bytes)
            let headers = [
                "x-amz-checksum-sha256": Data(Digests.bytes(fromHex: sha256)).base64EncodedString(),
                "content-length": String(bytes.count), "content-type": contentType,
            ]
            _ = try send("PUT", key: key, headers: headers, body: .bytes(bytes), payloadHash: sha256, accept: [200])
        }

        /// Streams the object into `file` (or only through the hash, with none), hashing it as it
        /// arrives; returns its size and SHA-256 (hex).
        @discardableResult
        func get(key: String, into file: FileSystem.Descriptor?) throws -> (size: UInt64, sha256: String) {
            let hasher = try StreamingSHA256()
            let response = try send("GET", key: key, sink: file, hasher: hasher, accept: [200]) { _ in
                // A retry starts the file over.
                if let file { try FileSystem.truncate(file, to: 0) }
            }
            return (UInt64(response.headers["content-length"] ?? "") ?? 0, hasher.finish())
        }

        /// The object's bytes from `offset`, at most `count` of them (fewer at its end, none past it):
        /// one ranged GET, kept in memory.
        func get(key: String, offset: UInt64, count: Int) throws -> [UInt8] {
            guard count > 0 else { return [] }
            let last = offset + UInt64(count) - 1
            // The whole range is kept (a kept preview may be a few megabytes), and never more than
            // 1 MiB beyond what was asked for, whatever the store sends.
            let response = try send(
                "GET", key: key, headers: ["range": "bytes=\(offset)-\(last)"], accept: [200, 206, 416],
                bodyLimit: max(1 << 20, count))
            switch response.status {
            case 206: return Array(response.body.prefix(count))
            // A store that ignores ranges sends the whole object.
            case 200: return Array(response.body.dropFirst(Int(min(offset, UInt64(response.body.count)))).prefix(count))
            default: return []  // 416: the range starts past the end
            }
        }

        /// The SHA-256 (hex) of the object's bytes as the store serves them, read through without
        /// being kept.
        func storedSHA256(of key: String) throws -> String {
            let hasher = try StreamingSHA256()
            _ = try send("GET", key: key, hasher: hasher, accept: [200])
            return hasher.finish()
        }

        /// The object's size, or `nil` when there is no such object.
        func size(of key: String) throws -> UInt64? {
            let response = try send("HEAD", key: key, accept: [200, 404])
            guard response.status == 200 else { return nil }
            return UInt64(response.headers["content-length"] ?? "") ?? 0
        }

        /// Whether the object holds exactly `size` bytes whose SHA-256 is `sha256` (`file` holds
        /// them locally): judged by the checksum the store keeps (`x-amz-checksum-sha256`), else by a
        /// single-part ETag (the MD5 of the bytes), else by reading the object back and hashing it.
        func condition(of key: String, size: UInt64, sha256: String, file: FileSystem.Descriptor) throws
            -> ObjectCondition
        {
            let head = try send("HEAD", key: key, headers: ["x-amz-checksum-mode": "ENABLED"], accept: [200, 404])
            guard head.status == 200 else { return .missing }
            guard UInt64(head.headers["content-length"] ?? "") == size else { return .damaged }
            if let stored = head.headers["x-amz-checksum-sha256"], !stored.contains("-") {
                return stored == Data(Digests.bytes(fromHex: sha256)).base64EncodedString() ? .intact : .damaged
            }
            let etag = (head.headers["etag"] ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if etag.count == 32, etag.allSatisfy(\.isHexDigit) {
                let md5 = SignatureV4.hex(try Digests.md5(of: file, offset: 0, length: size))
                return etag.lowercased() == md5 ? .intact : .damaged
            }
            return try storedSHA256(of: key) == sha256 ? .intact : .damaged
        }

        /// Deletes the object (deleting a missing object succeeds).
        func delete(key: String) throws {
            _ = try send("DELETE", key: key, accept: [200, 204, 404])
        }

        /// Every object under `prefix`, with sizes (ListObjectsV2, page by page).
        func list(prefix: String) throws -> [(key: String, size: UInt64)] {
            var out: [(key: String, size: UInt64)] = []
            var token: String?
            repeat {
                var query = [("list-type", "2"), ("prefix", prefix), ("max-keys", "1000")]
                if let token { query.append(("continuation-token", token)) }
                let response = try send("GET", key: nil, query: query, accept: [200])
                let xml = response.bodyText
                for entry in XMLScan.elements("Contents", in: xml) {
                    if let key = XMLScan.elements("Key", in: entry).first {
                        out.append((key, UInt64(XMLScan.elements("Size", in: entry).first ?? "") ?? 0))
                    }
                }
                token =
                    XMLScan.elements("IsTruncated", in: xml).first == "true"
                    ? XMLScan.elements("NextContinuationToken", in: xml).first : nil
            } while token != nil
            return out
        }

        /// Fails with `NoSuchBucket` (or the store's refusal) unless the bucket answers.
        func requireBucket() throws {
            let head = try send("HEAD", key: nil, accept: [200, 404])
            guard head.status == 200 else {
                throw ObjectStoreError(status: 404, code: "NoSuchBucket", message: "", key: location.bucket)
            }
        }

        /// Creates the bucket when it does not exist.
        func createBucketIfMissing() throws {
            let head = try send("HEAD", key: nil, accept: [200, 404])
            if head.status == 200 { return }
            _ = try send("PUT", key: nil, accept: [200, 409])
        }

        // MARK: Multipart

        private func putMultipart(
            key: String, file: FileSystem.Descriptor, length: UInt64, sha256: String, contentType: String?,
            replacing: Bool
        ) throws -> Bool {
            if !replacing, try size(of: key) != nil { return false }
            var headers = ["x-amz-meta-sha256": sha256]
            if let contentType { headers["content-type"] = contentType }
            let uploadID = try startMultipart(key: key, headers: headers)
            do {
                // The parts go at once on ``partConnections`` connections, each hashed by the thread
                // that sends it: its MD5 only, which the store checks (`Content-MD5`); the payload is
                // not hashed a second time for the signature. The whole object's SHA-256 is the
                // asset's, checked by `verify`.
                let ranges = parts(of: length)
                let etags = Locked([String](repeating: "", count: ranges.count))
                try Blocking.forEach(Array(ranges.enumerated()), threads: Self.partConnections) { number, range in
                    let md5 = try Digests.md5(of: file, offset: range.offset, length: range.length)
                    let etag = try self.putPart(
                        number + 1, of: uploadID, key: key, file: file, range: range, md5: md5)
                    etags.withLock { $0[number] = etag }
                }
                let parts = etags.withLock { $0 }.enumerated().map { number, etag in
                    "<Part><PartNumber>\(number + 1)</PartNumber><ETag>\(etag)</ETag></Part>"
                }
                let xml = Array(
                    "<CompleteMultipartUpload>\(parts.joined())</CompleteMultipartUpload>".utf8)
                let done = try send(
                    "POST", key: key, query: [("uploadId", uploadID)], body: .bytes(xml),
                    payloadHash: SignatureV4.sha256Hex(xml), accept: [200])
                if done.bodyText.contains("<Error>") {
                    throw ObjectStoreError(
                        status: done.status, code: XMLScan.elements("Code", in: done.bodyText).first ?? "",
                        message: XMLScan.elements("Message", in: done.bodyText).first ?? "", key: key)
                }
            } catch {
                // Abort of our own upload (an unfinished one is no object); the error thrown is what matters.
                try? abortMultipart(key: key, uploadID: uploadID)
                throw error
            }
            // The whole object is checked by its size here and by its SHA-256 in `verify`.
            guard try size(of: key) == length else {
                throw ObjectStoreError(
                    status: 0, code: "SizeMismatch", message: "the assembled object has the wrong size", key: key)
            }
            return true
        }

        /// Sends part `number` (from 1) of upload `uploadID`: `range` of `file`, whose MD5 is `md5`
        /// (the store refuses the part when its bytes do not match). Returns the part's ETag.
        func putPart(
            _ number: Int, of uploadID: String, key: String, file: FileSystem.Descriptor,
            range: (offset: UInt64, length: UInt64), md5: [UInt8]
        ) throws -> String {
            let response = try send(
                "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
                headers: ["content-md5": Data(md5).base64EncodedString(), "content-length": String(range.length)],
                body: .file(file, offset: range.offset, length: range.length), payloadHash: SignatureV4.unsignedPayload,
                accept: [200])
            return response.headers["etag"] ?? ""
        }

        /// Starts a multipart upload of `key`; returns its upload id.
        func startMultipart(key: String, headers: [String: String]) throws -> String {
            let created = try send("POST", key: key, query: [("uploads", "")], headers: headers, accept: [200])
            guard let uploadID = XMLScan.elements("UploadId", in: created.bodyText).first else {
                throw ObjectStoreError(status: created.status, code: "NoUploadId", message: created.bodyText, key: key)
            }
            return uploadID
        }

        /// Abandons multipart upload `uploadID` of `key` (an unfinished upload is no object).
        func abortMultipart(key: String, uploadID: String) throws {
            _ = try send("DELETE", key: key, query: [("uploadId", uploadID)], accept: [200, 204, 404])
        }

        /// The parts of a `length`-byte multipart upload: whole waves of ``partConnections`` parts
        /// (at least ``partSize`` each, at most 10 000 parts as S3 allows), so no connection
        /// idles while the last parts go.
        func parts(of length: UInt64) -> [(offset: UInt64, length: UInt64)] {
            let mebibyte: UInt64 = 1 << 20
            let wave = UInt64(Self.partConnections)
            var size = max(partSize, (length / (2 * wave) + mebibyte - 1) / mebibyte * mebibyte)
            size = max(size, (length + 9_999) / 10_000)
            return stride(from: UInt64(0), to: length, by: Int(size)).map { ($0, min(size, length - $0)) }
        }

        // MARK: Requests

        /// Sends one signed request, retrying transient failures; `beforeAttempt` runs before each try.
        private func send(
            _ method: String, key: String?, query: [(String, String)] = [], headers: [String: String] = [:],
            body: HTTPTransfer.Body = .none, payloadHash: String = SignatureV4.emptyPayloadHash,
            sink: FileSystem.Descriptor? = nil, hasher: StreamingSHA256? = nil, accept: Set<Int>,
            bodyLimit: Int = 1 << 20, beforeAttempt: ((HTTPTransfer.Response) throws -> Void)? = nil
        ) throws -> HTTPTransfer.Response {
            let path = requestPath(key: key)
            let queryString = query.map { "\(SignatureV4.encode($0.0))=\(SignatureV4.encode($0.1))" }
                .joined(separator: "&")
            let url = base + path + (queryString.isEmpty ? "" : "?" + queryString)
            let deadline = Date().addingTimeInterval(retryWindow)
            sentRequests.withLock { $0[method, default: 0] += 1 }
            var attempt = 0
            while true {
                attempt += 1
                var lastFailure: any Error
                do {
                    if attempt > 1 {
                        hasher?.reset()
                        try beforeAttempt?(HTTPTransfer.Response(status: 0, headers: [:], body: []))
                    }
                    var signedHeaders = headers
                    signedHeaders.removeValue(forKey: "content-length")
                    let authorization = signer.sign(
                        method: method, host: host, path: path, query: query, headers: signedHeaders,
                        payloadHash: payloadHash)
                    let response = try HTTPTransfer.perform(
                        method, url: url, headers: signedHeaders.merging(authorization) { $1 }, body: body, sink: sink,
                        hasher: hasher, caBundle: trust.bundle, bodyLimit: bodyLimit, handles: handles)
                    if accept.contains(response.status) { return response }
                    let failure = ObjectStoreError(response: response, key: key ?? location.bucket)
                    guard failure.isTransient else { throw failure }
                    lastFailure = failure
                } catch let error as HTTPTransfer.TransportError where error.isCertificateProblem {
                    // A certificate does not fix itself: no retries.
                    throw ObjectStoreError(
                        status: 0, code: "CertificateProblem", message: "\(error.message); \(trust.remedy)",
                        key: key ?? location.bucket)
                } catch let error as HTTPTransfer.TransportError {
                    lastFailure = error
                } catch {
                    throw error
                }
                guard Date() < deadline, !Task.isCancelled else {
                    if let failure = lastFailure as? ObjectStoreError { throw failure }
                    throw ObjectStoreError(
                        status: 0, code: "Unreachable", message: "\(lastFailure)", key: key ?? location.bucket)
                }
                // 50 ms, doubling up to 2 s, with jitter so many savers do not retry in step.
                let delay = min(2.0, 0.05 * pow(2, Double(min(attempt, 6)))) * Double.random(in: 0.5...1)
                usleep(useconds_t(delay * 1_000_000))
            }
        }

        /// `/bucket/key` (path-style) or `/key` (virtual-hosted), URI-encoded.
        func requestPath(key: String?) -> String {
            let object = key.map { "/" + SignatureV4.encode($0, keepSlash: true) } ?? ""
            switch location.addressing {
            case .path: return "/" + SignatureV4.encode(location.bucket) + object
            case .virtual: return object.isEmpty ? "/" : object
            }
        }

        /// The URL of `key` (for tests and messages).
        func url(of key: String?) -> String { base + requestPath(key: key) }
    }

    /// What a ``S3Client/condition(of:size:sha256:file:)`` check found.
    enum ObjectCondition: Sendable {
        case intact
        /// Not there at all.
        case missing
        /// There, but other bytes (cut short, overwritten or corrupted in the store).
        case damaged
    }
#endif
