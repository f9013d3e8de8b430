import AlbumKitMedia
import AlbumTestSupport
import Foundation
import Testing

/// `album serve` from outside, as a phone or an attacker meets it: `Scripts/serve/check-serve.py`
/// starts the built `album serve` on a free loopback port over a temporary catalog and checks it,
/// over plain HTTP (any machine with libmicrohttpd) and in Debian's Chromium driven by Playwright.
@Suite("album serve", .serialized)
struct ServeCLITests {
    static let script = CLI.packageRoot.appendingPathComponent("Scripts/serve/check-serve.py")

    /// libmicrohttpd, where Debian's libmicrohttpd12 puts it (a regular file: CI's fresh-machine run
    /// binds /dev/null over it).
    static func requireMicroHTTPD() throws {
        let found = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"].contains {
            var info = stat()
            return stat($0 + "/libmicrohttpd.so.12", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        try ExternalTool.requireAvailable(found, "libmicrohttpd", install: "apt-get install libmicrohttpd12")
    }

    /// A temporary library of `kind` (`catalog` or `folders`) with an album "Trip" of three photos;
    /// the folders for the server's state and the script's files.
    static func withLibrary(
        _ kind: String = "catalog", _ body: (_ library: String, _ state: String, _ work: String) async throws -> Void
    ) async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "album-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A temporary folder: at worst left behind.
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = CLI.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")
        let library = folder.appendingPathComponent(kind == "catalog" ? "Photos.albumlibrary" : "Pictures").path
        let saved = try CLI.run(
            ["save", "--library", library, kind == "catalog" ? "--catalog" : "--folders", "--album", "Trip"]
                + ["jpeg-gps-ne-be.jpg", "jpeg-thumbnail.jpg", "png-plain.png"].map {
                    corpus.appendingPathComponent($0).path
                })
        #expect(saved.status == 0, "\(saved.stderr)")
        let state = folder.appendingPathComponent("state").path
        let work = folder.appendingPathComponent("work").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try await body(library, state, work)
    }

    /// Runs the script with `python`; its output, and whether it passed. Waited for on a thread of
    /// its own (``OwnThread``): the checks take minutes on a busy machine.
    static func check(_ python: String, _ arguments: [String]) async throws -> (passed: Bool, output: String) {
        let script = self.script.path
        return try await OwnThread.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            print(output)
            return (process.terminationStatus == 0 && output.contains("all checks passed"), output)
        }
    }

    @Test(
        "Over HTTP: the token, refusals (no cookie, no CSRF header, another origin, traversal, huge headers, cut bodies), ranges, previews, sorting by date taken, resumable uploads, sidecars saved with their photo, SIGKILL mid-upload (about 10 s: a 24 MB upload and two server starts)",
        arguments: ["catalog", "folders"]
    )
    func overHTTP(kind: String) async throws {
        try Self.requireMicroHTTPD()
        try await Self.withLibrary(kind) { library, state, work in
            let (passed, output) = try await Self.check(
                "/usr/bin/python3", ["http", CLI.binary.path, library, state, work])
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }

    @Test(
        "Share links over HTTP: a guest sees the link's album and nothing else (other albums, their originals, the album list, the owner's uploads), a view-only link cannot upload, an adding one saves into its album only, forged tokens and traversal through /s/ open nothing, a PIN with its limit, revoked and expired links stop at the next request (about 10 s)",
        arguments: ["catalog", "folders"]
    )
    func shareLinksOverHTTP(kind: String) async throws {
        try Self.requireMicroHTTPD()
        try await Self.withLibrary(kind) { library, state, work in
            let (passed, output) = try await Self.check(
                "/usr/bin/python3", ["share", CLI.binary.path, library, state, work])
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }

    @Test(
        "Share links in Chromium: a guest opens the link and sees one album, cannot reach another album, its originals, the album list or an upload; a revoked link closes an open page; an adding link saves from the page; an expired link; a PIN wrong then right (about 15 s: a browser)"
    )
    func shareLinksInChromium() async throws {
        try Self.requireMicroHTTPD()
        try ExternalTool.require("chromium")
        let python = Self.playwrightPython()
        try ExternalTool.requireAvailable(
            python != nil, "Playwright for Python", install: "pip install playwright, in .build/playwright-venv")
        try await Self.withLibrary { library, state, work in
            let shots = CLI.packageRoot.appendingPathComponent(".build/serve-screenshots").path
            let (passed, output) = try await Self.check(
                python!, ["share-browser", CLI.binary.path, library, state, work, shots])
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }

    @Test("HTTPS with --tls-cert and --tls-key: an https link, a Secure cookie, a mismatched pair refused")
    func overHTTPS() async throws {
        try Self.requireMicroHTTPD()
        let openssl = try ExternalTool.require("openssl")
        try await Self.withLibrary { library, state, work in
            let (passed, output) = try await Self.check(
                "/usr/bin/python3", ["tls", CLI.binary.path, library, state, work, openssl])
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }

    @Test(
        "Without libmicrohttpd, album serve says to install libmicrohttpd12 and every other command works (as root: the library hidden in a mount namespace)",
        .enabled(if: getuid() == 0, "hiding the library needs a mount namespace (root)"))
    func withoutMicroHTTPD() async throws {
        try Self.requireMicroHTTPD()
        // `mount` follows the link to the library's file and binds /dev/null over that.
        let hidden = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"].map {
            $0 + "/libmicrohttpd.so.12"
        }.first { FileManager.default.fileExists(atPath: $0) }!
        try await Self.withLibrary { library, state, _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = [
                "-m", "sh", "-c",
                "mount --bind /dev/null \"$1\" && \"$2\" serve --library \"$3\"; echo \"serve=$?\"; \"$2\" albums --library \"$3\"",
                "sh", hidden, CLI.binary.path, library,
            ]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": state, "XDG_STATE_HOME": state]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(output.contains("album serve needs GNU libmicrohttpd"), "\(output)")
            #expect(output.contains("install libmicrohttpd12"), "\(output)")
            #expect(output.contains("serve=1"), "\(output)")
            #expect(output.contains("Trip"), "album albums works without it: \(output)")
        }
    }

    /// The Python that has Playwright: the one `.ci/run` installs it into, else one on the PATH.
    static func playwrightPython() -> String? {
        ExternalTool.python(
            importing: "playwright.sync_api",
            preferring: [CLI.packageRoot.appendingPathComponent(".build/playwright-venv/bin/python3").path])
    }

    @Test(
        "In Chromium: open the link, the albums, an album, a photo's preview, upload photos and a video through the file input, seen by album show; the grid sorted by date taken; a photo with its sidecar and a lone sidecar; a CLI save shown live; the video played with ranges; a 1 GiB video cut at 60 % and resumed, one 8 MiB piece sent again (about 1-2 min: a browser and 1 GiB written three times; skipped below 4 GiB free)"
    )
    func inChromium() async throws {
        try Self.requireMicroHTTPD()
        try ExternalTool.require("chromium")
        let python = Self.playwrightPython()
        try ExternalTool.requireAvailable(
            python != nil, "Playwright for Python", install: "pip install playwright, in .build/playwright-venv")
        try await Self.withLibrary { library, state, work in
            let shots = CLI.packageRoot.appendingPathComponent(".build/serve-screenshots").path
            let (passed, output) = try await Self.check(
                python!, ["browser", CLI.binary.path, library, state, work, shots])
            print("screenshots: \(shots)")
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }

    @Test(
        "In Chromium: a photo of one piece is uploaded in one request; one cut before the server had it and one cut after it saved it are sent again the resumable way and are each in the album once; the open grid asks for the album at most once a second during 30 uploads and shows the last; a creation cut before its answer leaves nothing staged"
    )
    func uploadsOneRequestEach() async throws {
        try await Self.inChromium("uploads")
    }

    @Test(
        "In Chromium: the album grid gives the first screen's cells their thumbnails' addresses in one task and, scrolled, at most 8 in one task (a MutationObserver in the page counts them at the end of each task); every thumbnail drawn, with the page's Content-Security-Policy in force too"
    )
    func gridThumbnailsFirstScreenInOneTask() async throws {
        try await Self.inChromium("gridtasks")
    }

    @Test(
        "In Chromium: after a CLI save, the grid's request for the album answered 503 once is asked again and the new photo shows; the page leaving the album while that request is on its way asks nothing more for it"
    )
    func gridRefreshRetriedAndDroppedOnLeaving() async throws {
        try await Self.inChromium("gridrefresh")
    }

    /// Runs check-serve.py `mode` in Chromium over a catalog with the album "Trip".
    static func inChromium(_ mode: String) async throws {
        try requireMicroHTTPD()
        try ExternalTool.require("chromium")
        let python = playwrightPython()
        try ExternalTool.requireAvailable(
            python != nil, "Playwright for Python", install: "pip install playwright, in .build/playwright-venv")
        try await withLibrary { library, state, work in
            let (passed, output) = try await check(python!, [mode, CLI.binary.path, library, state, work])
            #expect(passed, "\(output.split(separator: "\n").last { $0.hasPrefix("FAILED") } ?? "")")
        }
    }
}
