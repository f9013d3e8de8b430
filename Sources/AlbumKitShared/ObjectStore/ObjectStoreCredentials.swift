#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The access key pair for the object store, found where the AWS tools look (never stored with
    /// the library): `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`), else the
    /// profile `AWS_PROFILE` (or `default`) of the shared credentials file (`~/.aws/credentials`, or
    /// `AWS_SHARED_CREDENTIALS_FILE`), else that profile in the config file (`~/.aws/config`, or
    /// `AWS_CONFIG_FILE`).
    struct ObjectStoreCredentials: Sendable {
        var accessKey: String
        var secretKey: String
        var sessionToken: String?

        static func resolve(_ environment: [String: String] = LibraryConfiguration.current.environment) throws
            -> ObjectStoreCredentials
        {
            if let access = environment["AWS_ACCESS_KEY_ID"], !access.isEmpty,
                let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
            {
                return ObjectStoreCredentials(
                    accessKey: access, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
            }
            let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            let home = environment["HOME"] ?? NSHomeDirectory()
            let files = [
                (environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials", profile ?? "default"),
                // The config file names its sections `[profile NAME]`, except `[default]`.
                (environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config", profile.map { "profile " + $0 } ?? "default"),
            ]
            var looked: [String] = []
            for (path, section) in files {
                // A probe: a file that cannot be read is skipped (`looked` names those read, in the error).
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                looked.append(path)
                let values = AWSConfigFile.section(section, in: text)
                if let access = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] {
                    return ObjectStoreCredentials(
                        accessKey: access, secretKey: secret, sessionToken: values["aws_session_token"])
                }
            }
            if let profile {
                throw AlbumError(
                    .accessDenied,
                    "No object store credentials for the profile \"\(profile)\" (AWS_PROFILE): "
                        + (looked.isEmpty
                            ? "there is no \(files[0].0) or \(files[1].0)"
                            : "\(looked.joined(separator: " and ")) has no aws_access_key_id and aws_secret_access_key in it")
                        + ".")
            }
            throw AlbumError(
                .accessDenied,
                "No object store credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or put them in ~/.aws/credentials (a profile chosen with AWS_PROFILE)."
            )
        }
    }

    /// The INI files of the AWS tools: `[section]` headers, `key = value` lines, `#` and `;` comments.
    enum AWSConfigFile {
        /// The keys and values of `[name]` in `text` (keys lowercased; later lines win).
        static func section(_ name: String, in text: String) -> [String: String] {
            var values: [String: String] = [:]
            var inside = false
            for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
                if line.hasPrefix("[") && line.hasSuffix("]") {
                    let header = line.dropFirst().dropLast().split(whereSeparator: \.isWhitespace).joined(
                        separator: " ")
                    inside = header == name
                    continue
                }
                // An indented line continues a nested block (`s3 =` …); its keys are not the profile's.
                guard inside, raw.first?.isWhitespace != true, let equals = line.firstIndex(of: "=") else { continue }
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
            return values
        }
    }
#endif
