#if os(Linux)
    import AlbumTestSupport
    import Foundation
    import Testing

    /// `album serve` over a shared library (`Scripts/serve/check-serve.py`): the checks every kind
    /// passes over HTTP and with share links, then two servers as on two machines (their own tokens
    /// and upload folders) taking uploads at once into one new album, and both honouring a share
    /// link the CLI made, until it is revoked.
    extension SharedServerTests {
        @Suite struct SharedServeTests {
            @Test(
                "album serve over a shared library: the HTTP checks, share links, then two servers uploading into one album make one album and honour (and drop at once) a share link made by the CLI (about 20 s)"
            )
            func serveOverASharedLibrary() async throws {
                let found = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
                    .contains {
                        var info = stat()
                        return stat($0 + "/libmicrohttpd.so.12", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                    }
                try ExternalTool.requireAvailable(found, "libmicrohttpd", install: "apt-get install libmicrohttpd12")
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photos = try (0..<3).map { try SharedTestLibrary.uniqueJPEG(in: directory, "serve-\($0)") }
                    let saved = Shell.run(
                        Shell.album, ["save", "--album", "Trip"] + photos.map(\.path), environment: shared.environment)
                    #expect(saved.status == 0, "\(saved.stderr)")
                    let script = SharedServers.packageRoot.appendingPathComponent("Scripts/serve/check-serve.py").path
                    for mode in ["http", "share", "two"] {
                        let work = directory.appendingPathComponent(mode)
                        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                        let run = Shell.run(
                            "/usr/bin/python3",
                            [
                                script, mode, Shell.album, shared.url, directory.appendingPathComponent("state").path,
                                work.path,
                            ],
                            environment: shared.environment)
                        print(run.stdout + run.stderr)
                        #expect(
                            run.status == 0 && run.stdout.contains("all checks passed"),
                            "\(mode): \(run.stdout.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? Substring(run.stderr))"
                        )
                    }
                }
            }
        }
    }
#endif
