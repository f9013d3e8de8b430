#if os(Linux)
    import AlbumTestSupport
    import CShims
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// What real providers need: a private certificate authority, the AWS credential files,
        /// both addressing styles, settings changed after `init`.
        @Suite struct SharedProviderTests {
            @Test func aStoreBehindTLSWithAPrivateAuthorityIsTrustedOnlyWhenItsBundleIsGiven() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let proxy = try TLSProxy(in: directory, to: shared.backend.store.location.endpoint)
                    defer { proxy.stop() }
                    try shared.sql("UPDATE albumkit_setting SET value = $1 WHERE name = 'endpoint'", [proxy.endpoint])
                    var environment = shared.environment
                    for name in ObjectStoreTrust.variables { environment.removeValue(forKey: name) }
                    let photo = SharedServers.examples.appendingPathComponent("harbour.jpg")
                    // The system's authorities do not know the private one: refused at once, and said so.
                    let untrusted = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: environment))
                    do {
                        _ = try await untrusted.save(.file(photo))
                        Issue.record("a store with an unknown certificate authority was trusted")
                    } catch let error as AlbumError {
                        #expect(error.code == .accessDenied)
                        #expect(error.message.contains("TLS certificate"), "\(error.message)")
                        #expect(error.message.contains("AWS_CA_BUNDLE"), "\(error.message)")
                    }
                    // Each of the usual variables names the bundle.
                    for name in ["AWS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE", "ALBUMKIT_S3_CA_BUNDLE"] {
                        var trusting = environment
                        trusting[name] = proxy.authority.path
                        let library = PhotoLibrary(
                            backend: try SharedBackend.open(url: shared.url, environment: trusting))
                        let saved = try await library.album(titled: name).save(.file(photo))
                        #expect(try await library.assets(inAlbumTitled: name).map(\.id) == [saved.assetID])
                    }
                    // The command line's --ca-bundle, then a bundle that is not there.
                    let run = Shell.run(
                        Shell.album, ["--ca-bundle", proxy.authority.path, "verify"], environment: environment)
                    #expect(run.status == 0, "\(run)")
                    environment["AWS_CA_BUNDLE"] = directory.appendingPathComponent("missing.pem").path
                    #expect(
                        errorCode { try SharedBackend.open(url: shared.url, environment: environment) } == .fileNotFound
                    )
                    // A bundle of another authority: the certificate problem is named, not "cannot be reached".
                    let stranger = try TLSProxy.makeAuthority(in: directory.appendingPathComponent("other"))
                    environment["AWS_CA_BUNDLE"] = stranger.path
                    let wrong = PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: environment))
                    let message = await errorMessage { try await wrong.save(.file(photo)) }
                    #expect(message?.contains("certificate") == true && message?.contains(stranger.path) == true)
                }
            }

            @Test func credentialsComeFromTheProfileOfTheSharedCredentialsFile() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    var environment = shared.environment
                    let access = try #require(environment["AWS_ACCESS_KEY_ID"])
                    let secret = try #require(environment["AWS_SECRET_ACCESS_KEY"])
                    environment["AWS_ACCESS_KEY_ID"] = nil
                    environment["AWS_SECRET_ACCESS_KEY"] = nil
                    let credentials = directory.appendingPathComponent("credentials")
                    try """
                    [default]
                    aws_access_key_id = nobody
                    aws_secret_access_key = wrong

                    # the family library
                    [family]
                    aws_access_key_id = \(access)
                    aws_secret_access_key=\(secret)
                    """.write(to: credentials, atomically: true, encoding: .utf8)
                    environment["AWS_SHARED_CREDENTIALS_FILE"] = credentials.path
                    environment["AWS_CONFIG_FILE"] = directory.appendingPathComponent("config").path
                    environment["AWS_PROFILE"] = "family"
                    let library = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: environment))
                    _ = try await library.album(titled: "P").save(
                        .file(SharedServers.examples.appendingPathComponent("garden.png")))
                    #expect(try await library.verify().isHealthy)
                    // The default profile's keys are refused by the store; a profile that is not there is named.
                    environment["AWS_PROFILE"] = nil
                    let wrong = PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: environment))
                    #expect(
                        await errorCode {
                            try await wrong.save(.file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                        } == .accessDenied)
                    environment["AWS_PROFILE"] = "work"
                    let missing = errorMessage { try SharedBackend.open(url: shared.url, environment: environment) }
                    #expect(missing?.contains("\"work\"") == true && missing?.contains(credentials.path) == true)
                    // The config file's `[profile NAME]` sections count too.
                    try "[profile work]\naws_access_key_id = \(access)\naws_secret_access_key = \(secret)\n".write(
                        to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
                    #expect(errorCode { try SharedBackend.open(url: shared.url, environment: environment) } == nil)
                }
            }

            @Test func regionAndEndpointChangeSafelyAfterInitAndInitAgainWithOthersIsRefused() async throws {
                // Retried for 1 s, not 20: the dead endpoint below is given on purpose.
                let shared = try SharedTestLibrary(retrySeconds: 1)
                _ = try await shared.library.album(titled: "A").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                var location = try shared.backend.store.location
                location.region = "eu-central-003"
                #expect(
                    errorCode {
                        try SharedBackend.initialize(
                            url: shared.url, location: location, environment: shared.environment)
                    }
                        == .libraryCorrupt)
                // An endpoint that does not answer, or does not hold the originals, changes nothing.
                #expect(
                    await errorCode { try await shared.library.changeSharedSettings(endpoint: "http://127.0.0.1:1") }
                        != nil)
                #expect(try await shared.library.sharedSettings().store.endpoint == location.endpoint)
                // The same server under another name holds them: accepted.
                let renamed = location.endpoint.replacingOccurrences(of: "127.0.0.1", with: "localhost")
                let changed = try await shared.library.changeSharedSettings(endpoint: renamed, region: "eu-central-003")
                #expect(changed.store.endpoint == renamed && changed.store.region == "eu-central-003")
                let reopened = PhotoLibrary(
                    backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                #expect(try await reopened.sharedSettings().store.region == "eu-central-003")
                #expect(try await reopened.verify().isHealthy)
            }

            @Test func virtualHostedAddressingPutsTheBucketInTheHostName() throws {
                let credentials = ObjectStoreCredentials(accessKey: "a", secretKey: "b")
                let virtual = try S3Client(
                    location: ObjectStoreLocation(
                        endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: "family-photos", prefix: "p",
                        region: "eu-west-1", addressing: .virtual), credentials: credentials)
                #expect(
                    virtual.url(of: "p/originals/ab/x y")
                        == "https://family-photos.s3.eu-west-1.amazonaws.com/p/originals/ab/x%20y")
                #expect(virtual.url(of: nil) == "https://family-photos.s3.eu-west-1.amazonaws.com/")
                let path = try S3Client(
                    location: ObjectStoreLocation(endpoint: "http://127.0.0.1:9000", bucket: "photos"),
                    credentials: credentials)
                #expect(path.url(of: "k") == "http://127.0.0.1:9000/photos/k")
                #expect(
                    errorCode {
                        try ObjectStoreLocation(endpoint: "https://h", bucket: "a.b.c", addressing: .virtual)
                            .validated()
                    } == .invalidArgument)
            }
        }
    }

    /// A TLS endpoint in front of the local S3 server: a certificate authority made for the test,
    /// a certificate for 127.0.0.1 signed by it, and a small Python proxy that ends TLS.
    struct TLSProxy {
        let endpoint: String
        let authority: URL
        private let pid: pid_t

        init(in directory: URL, to upstream: String) throws {
            authority = try Self.makeAuthority(in: directory)
            let key = directory.appendingPathComponent("server.key").path
            let request = directory.appendingPathComponent("server.csr").path
            let certificate = directory.appendingPathComponent("server.pem").path
            let extensions = directory.appendingPathComponent("server.ext").path
            try "subjectAltName = IP:127.0.0.1\n".write(toFile: extensions, atomically: true, encoding: .utf8)
            try Self.openssl([
                "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-subj", "/CN=127.0.0.1", "-out",
                request,
            ])
            try Self.openssl([
                "x509", "-req", "-in", request, "-CA", authority.path, "-CAkey", authority.path + ".key",
                "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", certificate,
            ])
            let script = directory.appendingPathComponent("proxy.py").path
            try Self.source.write(toFile: script, atomically: true, encoding: .utf8)
            let portFile = directory.appendingPathComponent("port").path
            let target = URL(string: upstream)!
            // posix_spawn and kill + waitpid, not `Process` (see ``Shell/run(_:_:environment:)``).
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
            _ = albumkit_spawn_close_from(&actions, 3)  // nothing else of this process (see Shell.run)
            let host: String = target.host ?? "127.0.0.1"
            let words: [String] = [
                "/usr/bin/env", "python3", script, certificate, key, host, String(target.port ?? 80), portFile,
            ]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            let env: [UnsafeMutablePointer<CChar>?] =
                ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + env).forEach { free($0) } }
            var child = pid_t()
            guard posix_spawn(&child, "/usr/bin/env", &actions, nil, argv, env) == 0 else {
                throw AlbumError(.ioFailure, "python3 could not be started for the TLS proxy")
            }
            pid = child
            guard let port = Shell.waitForFile(portFile, seconds: 20)?.trimmingCharacters(in: .whitespacesAndNewlines)
            else { throw AlbumError(.ioFailure, "the TLS proxy did not start") }
            endpoint = "https://127.0.0.1:\(port)"
        }

        func stop() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }

        /// A new certificate authority in `directory`: `ca.pem` and `ca.pem.key`.
        static func makeAuthority(in directory: URL) throws -> URL {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let pem = directory.appendingPathComponent("ca.pem")
            try openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pem.path + ".key", "-subj",
                "/CN=AlbumKit test authority", "-days", "2", "-out", pem.path,
            ])
            return pem
        }

        private static func openssl(_ arguments: [String]) throws {
            let run = Shell.run(try ExternalTool.require("openssl"), arguments)
            guard run.status == 0 else { throw AlbumError(.ioFailure, "openssl \(arguments[0]) failed: \(run.stderr)") }
        }

        /// Accepts TLS on a free loopback port (written to the port file), relays bytes both ways.
        static let source = """
            import socket, ssl, sys, threading
            cert, key, host, port, port_file = sys.argv[1:6]
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
            listener = socket.create_server(("127.0.0.1", 0))
            def pump(source, target):
                try:
                    while True:
                        data = source.recv(65536)
                        if not data:
                            break
                        target.sendall(data)
                except OSError:
                    pass
                finally:
                    for s in (source, target):
                        try:
                            s.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
            def serve(client):
                try:
                    secure = context.wrap_socket(client, server_side=True)
                except (ssl.SSLError, OSError):
                    client.close()
                    return
                upstream = socket.create_connection((host, int(port)))
                threading.Thread(target=pump, args=(secure, upstream), daemon=True).start()
                pump(upstream, secure)
            with open(port_file + ".tmp", "w") as f:
                f.write(str(listener.getsockname()[1]))
            import os
            os.rename(port_file + ".tmp", port_file)
            while True:
                client, _ = listener.accept()
                threading.Thread(target=serve, args=(client,), daemon=True).start()
            """
    }

    /// The message of the `AlbumError` `body` throws, `nil` when it succeeds.
    func errorMessage(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? AlbumError)?.message ?? "\(error)" }
    }

    /// The message of the `AlbumError` `body` throws, `nil` when it succeeds.
    func errorMessage(_ body: () async throws -> Any) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch { return (error as? AlbumError)?.message ?? "\(error)" }
    }
#endif
