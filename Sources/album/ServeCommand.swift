#if os(Linux)
    import AlbumKit
    import AlbumKitCore
    import AlbumServer
    import Foundation

    /// `album serve [--listen ADDRESS:PORT] [--trust-proxy] [--tls-cert FILE --tls-key FILE]`: the
    /// library's albums in a browser, and uploads into them, until Ctrl-C (Docs/serve.md).
    enum ServeCommand {
        static func run(_ arguments: Arguments) async throws -> Int32 {
            if let reason = HTTPServer.unavailableReason() {
                throw AlbumError(.notSupported, "album serve needs GNU libmicrohttpd: \(reason).")
            }
            let address = try HTTPListenAddress(parsing: arguments.value(.listen) ?? "127.0.0.1:8080")
            let tls = try certificate(arguments)
            let (url, kind) = try LibraryChoice.resolve(arguments, create: false)
            let library = try LibraryChoice.open(arguments, create: false)
            // Opening errors (no library there) come now, before anything listens.
            _ = try await library.albums()
            let identity = LibraryChoice.sharedLocation(arguments) ?? url?.path ?? "system"
            let state = stateFolder()
            let token = try OwnerToken.load(stateFolder: state, library: identity)
            let libraryKey = Array(identity.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }.prefix(32)
            let uploads = try UploadStore(folder: state + "/uploads/" + libraryKey)
            uploads.removeAbandoned()
            var settings = LibraryWebHandler.Settings()
            settings.trustsProxy = arguments.has(.trustProxy)
            settings.nestsAlbums = kind == .folders
            settings.secureCookie = tls != nil
            let handler = LibraryWebHandler(library: library, token: token, uploads: uploads, settings: settings)
            let server = try HTTPServer(listening: address, tls: tls, handler: handler)
            let scheme = tls == nil ? "http" : "https"
            let hosts =
                address.isLoopback || !["0.0.0.0", "::"].contains(address.host) ? [address.host] : lanAddresses()
            Output.out(
                "Serving \(libraryName(kind, identity)) on \(address.isLoopback ? "this machine only" : "the network"). Open:"
            )
            let links = (hosts.isEmpty ? ["127.0.0.1"] : hosts).map { host in
                "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(server.port)/?token=\(token.value)"
            }
            for link in links { Output.out("  " + link) }
            // On a terminal, the first link as a QR code too, for a phone's camera (not into a pipe or file).
            if isatty(1) == 1, let code = try? QRCode(text: links[0]) {  // a link too long for a code: the text alone
                Output.out(code.terminalText)
            }
            Output.out(
                "The link holds the access token: anyone who has it can see and add to every album. Ctrl-C stops.")
            while true { try await Task.sleep(for: .seconds(3600)) }
        }

        /// `--tls-cert` and `--tls-key`, read whole (both or neither).
        static func certificate(_ arguments: Arguments) throws -> (key: String, certificate: String)? {
            let certificate = arguments.value(.tlsCert)
            let key = arguments.value(.tlsKey)
            guard certificate != nil || key != nil else { return nil }
            guard let certificate, let key else {
                throw AlbumCommand.UsageFailure(message: "--tls-cert and --tls-key go together")
            }
            func read(_ path: String) throws -> String {
                do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                    throw AlbumError(
                        .fileUnreadable, "\(path) cannot be read: \(error.localizedDescription)", file: path)
                }
            }
            return (try read(key), try read(certificate))
        }

        /// `$XDG_STATE_HOME/albumkit/serve` (default `~/.local/state/albumkit/serve`).
        static func stateFolder() -> String {
            let given = getenv("XDG_STATE_HOME").map { String(cString: $0) }
            let home = getenv("HOME").map { String(cString: $0) } ?? NSHomeDirectory()
            let base = given.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
            return base + "/albumkit/serve"
        }

        static func libraryName(_ kind: LibraryChoice.Kind, _ identity: String) -> String {
            switch kind {
            case .catalog: "the catalog library \(identity)"
            case .folders: "the folder library \(identity)"
            case .shared: "the shared library"
            case .system: "Photos"
            }
        }

        /// This machine's IPv4 addresses other than loopback, for the links to print.
        static func lanAddresses() -> [String] {
            var list: UnsafeMutablePointer<ifaddrs>?
            guard getifaddrs(&list) == 0, let first = list else { return [] }
            defer { freeifaddrs(list) }
            var found: [String] = []
            for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
                guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                    continue
                }
                var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                guard
                    getnameinfo(
                        address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                        NI_NUMERICHOST)
                        == 0
                else { continue }
                let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !text.hasPrefix("127."), !found.contains(text) { found.append(text) }
            }
            return found
        }
    }
#endif
