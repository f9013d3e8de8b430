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
        private let host: String
        private let handles = HandlePool()
        /// How long transient failures are retried before giving up.
        let retryWindow: TimeInterval
        /// Files larger than this are uploaded in parts of ``partSize``.
        let multipartThreshold: UInt64
        let partSize: UInt64

        init(
            location: ObjectStoreLocation, credentials: ObjectStoreCredentials, retryWindow: TimeInterval = 60,
            multipartThreshold: UInt64 = 64 << 20, partSize: UInt64 = 16 << 20
        ) throws {
            self.location = try location.validated()
            let url = URL(string: location.endpoint)!
            host = url.port.map { "\(url.host!):\($0)" } ?? url.host!
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
        /// (`If-None-Match: *`); the server checks the SHA-256 and MD5. Returns `false` when the object
        /// was already there.
        @discardableResult
        func put(
            key: String, file: FileSystem.Descriptor, length: UInt64, sha256: String, contentType: String? = nil
        ) throws -> Bool {
            if length > multipartThreshold {
                return try putMultipart(key: key, file: file, length: length, sha256: sha256, contentType: contentType)
            }
            let md5 = try Digests.md5(of: file, offset: 0, length: length)
            var headers = [
                "content-md5": Data(md5).base64EncodedString(),
                "x-amz-checksum-sha256": Data(Digests.bytes(fromHex: sha256)).base64EncodedString(),
                "if-none-match": "*",
                "content-length": String(length),
            ]
            if let contentType { headers["content-type"] = contentType }
            let response = try send(
                "PUT", key: key, headers: headers, body: .file(file, offset: 0, length: length), payloadHash: sha256,
                accept: [200, 412])
            return response.status == 200
        }

        /// Streams the object into `file`; returns its size.
        @discardableResult
        func get(key: String, into file: FileSystem.Descriptor) throws -> UInt64 {
            var size: UInt64 = 0
            _ = try send("GET", key: key, sink: file, accept: [200]) { response in
                size = UInt64(response.headers["content-length"] ?? "") ?? 0
                // A retry starts the file over.
                guard ftruncate(file.fd, 0) == 0 else { throw SystemError("ftruncate", path: file.path, errno: errno) }
            }
            return size
        }

        /// The object's size, or `nil` when there is no such object.
        func size(of key: String) throws -> UInt64? {
            let response = try send("HEAD", key: key, accept: [200, 404])
            guard response.status == 200 else { return nil }
            return UInt64(response.headers["content-length"] ?? "") ?? 0
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

        /// Creates the bucket when it does not exist.
        func createBucketIfMissing() throws {
            let head = try send("HEAD", key: nil, accept: [200, 404])
            if head.status == 200 { return }
            _ = try send("PUT", key: nil, accept: [200, 409])
        }

        // MARK: Multipart

        private func putMultipart(
            key: String, file: FileSystem.Descriptor, length: UInt64, sha256: String, contentType: String?
        ) throws -> Bool {
            if try size(of: key) != nil { return false }
            var headers = ["x-amz-meta-sha256": sha256]
            if let contentType { headers["content-type"] = contentType }
            let created = try send("POST", key: key, query: [("uploads", "")], headers: headers, accept: [200])
            guard let uploadID = XMLScan.elements("UploadId", in: created.bodyText).first else {
                throw ObjectStoreError(status: created.status, code: "NoUploadId", message: created.bodyText, key: key)
            }
            do {
                var parts: [String] = []
                var offset: UInt64 = 0
                var number = 1
                while offset < length {
                    let partLength = min(partSize, length - offset)
                    let (partSHA, md5) = try Digests.sha256AndMD5(of: file, offset: offset, length: partLength)
                    let response = try send(
                        "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
                        headers: [
                            "content-md5": Data(md5).base64EncodedString(),
                            "content-length": String(partLength),
                        ],
                        body: .file(file, offset: offset, length: partLength), payloadHash: partSHA, accept: [200])
                    let etag = response.headers["etag"] ?? ""
                    parts.append("<Part><PartNumber>\(number)</PartNumber><ETag>\(etag)</ETag></Part>")
                    offset += partLength
                    number += 1
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
                _ = try? send("DELETE", key: key, query: [("uploadId", uploadID)], accept: [200, 204, 404])
                throw error
            }
            // The whole object is checked by its size here and by its SHA-256 in `verify`.
            guard try size(of: key) == length else {
                throw ObjectStoreError(
                    status: 0, code: "SizeMismatch", message: "the assembled object has the wrong size", key: key)
            }
            return true
        }

        // MARK: Requests

        /// Sends one signed request, retrying transient failures; `beforeAttempt` runs before each try.
        private func send(
            _ method: String, key: String?, query: [(String, String)] = [], headers: [String: String] = [:],
            body: HTTPTransfer.Body = .none, payloadHash: String = SignatureV4.emptyPayloadHash,
            sink: FileSystem.Descriptor? = nil, accept: Set<Int>,
            beforeAttempt: ((HTTPTransfer.Response) throws -> Void)? = nil
        ) throws -> HTTPTransfer.Response {
            let path =
                "/" + SignatureV4.encode(location.bucket)
                + (key.map { "/" + SignatureV4.encode($0, keepSlash: true) } ?? "")
            let queryString = query.map { "\(SignatureV4.encode($0.0))=\(SignatureV4.encode($0.1))" }
                .joined(separator: "&")
            let url = location.endpoint + path + (queryString.isEmpty ? "" : "?" + queryString)
            let deadline = Date().addingTimeInterval(retryWindow)
            var attempt = 0
            while true {
                attempt += 1
                var lastFailure: any Error
                do {
                    if attempt > 1, let beforeAttempt {
                        try beforeAttempt(HTTPTransfer.Response(status: 0, headers: [:], body: []))
                    }
                    var signedHeaders = headers
                    signedHeaders.removeValue(forKey: "content-length")
                    let authorization = signer.sign(
                        method: method, host: host, path: path, query: query, headers: signedHeaders,
                        payloadHash: payloadHash)
                    let response = try HTTPTransfer.perform(
                        method, url: url, headers: signedHeaders.merging(authorization) { $1 }, body: body, sink: sink,
                        handles: handles)
                    if accept.contains(response.status) { return response }
                    let failure = ObjectStoreError(response: response, key: key ?? location.bucket)
                    guard failure.isTransient else { throw failure }
                    lastFailure = failure
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
    }

    /// The access key pair, from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (and
    /// `AWS_SESSION_TOKEN`): never stored with the library.
    struct ObjectStoreCredentials: Sendable {
        var accessKey: String
        var secretKey: String
        var sessionToken: String?

        static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
            -> ObjectStoreCredentials
        {
            guard let access = environment["AWS_ACCESS_KEY_ID"], !access.isEmpty,
                let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
            else {
                throw AlbumError(
                    .accessDenied,
                    "No object store credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the shared library."
                )
            }
            return ObjectStoreCredentials(
                accessKey: access, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
    }
#endif
