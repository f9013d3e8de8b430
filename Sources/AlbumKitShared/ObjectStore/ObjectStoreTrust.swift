#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Which certificate authorities an `https://` object store's certificate is checked against: the
    /// system's, or a bundle (PEM) named by `ALBUMKIT_S3_CA_BUNDLE` (`album --ca-bundle`),
    /// `AWS_CA_BUNDLE`, `CURL_CA_BUNDLE` or `SSL_CERT_FILE`, the first one set — for a MinIO or Ceph
    /// behind a private certificate authority.
    struct ObjectStoreTrust: Sendable, Hashable {
        /// The PEM file of trusted authorities; `nil`: the system's.
        var bundle: String?
        /// The variable that named it, for messages.
        var source: String?

        static let variables = ["ALBUMKIT_S3_CA_BUNDLE", "AWS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE"]

        /// The trust `environment` asks for; a bundle that cannot be read is an error naming it.
        static func resolve(_ environment: [String: String]) throws -> ObjectStoreTrust {
            for name in variables {
                guard let path = environment[name], !path.isEmpty else { continue }
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw AlbumError(
                        .fileNotFound,
                        "The certificate bundle \(path) (from \(name)) does not exist or cannot be read; give the PEM file of the certificate authority that signed the object store's certificate.",
                        file: path)
                }
                return ObjectStoreTrust(bundle: path, source: name)
            }
            return ObjectStoreTrust()
        }

        /// What to tell a user whose store's certificate was not accepted.
        var remedy: String {
            if let bundle, let source {
                return
                    "the certificate is not signed by an authority in \(bundle) (\(source)), or does not name this host"
            }
            return
                "if the store uses a private certificate authority, set AWS_CA_BUNDLE (or SSL_CERT_FILE, CURL_CA_BUNDLE, album --ca-bundle) to its certificate (PEM)"
        }
    }
#endif
