import AlbumKitMedia
import AlbumTestSupport
import Foundation
import Testing

/// `album serve` makes an uploaded photo's thumbnails in the background once its save is
/// acknowledged: a grid finds them kept without anyone having asked for them.
@Suite("album serve: thumbnails after an upload", .serialized)
struct ServeThumbnailTests {
    /// Uploads one photo through `album serve` (the server `check-serve.py` starts), then waits,
    /// without asking for any picture, until the catalog keeps its 256- and 512-pixel thumbnails
    /// (at most 60 s); then uploads five more and stops the server at once; prints what it found as
    /// one JSON line.
    static let script = """
        import hashlib, importlib.util, json, os, sys, time
        spec = importlib.util.spec_from_file_location("check_serve", sys.argv[1])
        serve = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(serve)
        album, library, state, template = sys.argv[2:6]
        photo = serve.unique_jpeg(template, "background thumbnails %f" % time.time())
        sha = hashlib.sha256(photo).hexdigest()
        server = serve.Server(album, library, state)
        try:
            started = time.time()
            status, _, body = server.request("POST", "/api/uploads", body=photo, headers={
                "X-Album-Title": "Uploaded", "X-File-Name": "uploaded.jpg", "Upload-Length": str(len(photo)),
                "Upload-Complete": "?1"})
            answered = time.time() - started
            kept = [os.path.join(library, "derivatives", str(size), sha[:2], sha + ".jpg") for size in (256, 512)]
            deadline = time.time() + 60
            while time.time() < deadline and not all(os.path.exists(path) for path in kept):
                time.sleep(0.05)
            found = {"status": status, "answer": json.loads(body), "answered": answered,
                     "kept": [path for path in kept if os.path.exists(path)], "waited": time.time() - started}
            # Five more uploads, and the server stopped at once, while their thumbnails are being made.
            for number in range(5):
                more = serve.unique_jpeg(template, "stopped %d %f" % (number, time.time()))
                server.request("POST", "/api/uploads", body=more, headers={
                    "X-Album-Title": "Uploaded", "X-File-Name": "more-%d.jpg" % number,
                    "Upload-Length": str(len(more)), "Upload-Complete": "?1"})
            stopping = time.time()
            server.stop()
            found["stopped"] = time.time() - stopping
            kept = [os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(library, "derivatives"))
                    for name in names]
            whole = lambda data: data[:2] == bytes([0xFF, 0xD8]) and data[-2:] == bytes([0xFF, 0xD9])
            found["partial"] = [path for path in kept if not path.endswith(".jpg") or not whole(open(path, "rb").read())]
            print(json.dumps(found))
        finally:
            server.stop()
        """

    @Test func anUploadedPhotosThumbnailsAreKeptWithoutARequest() async throws {
        try ServeCLITests.requireMicroHTTPD()
        try ExternalTool.requireLibvips()
        try await ServeCLITests.withLibrary { library, state, work in
            let scriptFile = URL(fileURLWithPath: work).appendingPathComponent("upload.py")
            try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
            let template = CLI.packageRoot.appendingPathComponent("Examples/harbour.jpg")
            let arguments = [
                scriptFile.path, ServeCLITests.script.path, CLI.binary.path, library, state, template.path,
            ]
            // Waited for on a thread of its own: the script waits up to a minute for the thumbnails.
            let (status, output) = try await OwnThread.run {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                process.arguments = arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return (process.terminationStatus, output)
            }
            #expect(status == 0, "\(output)")
            let line = try #require(output.split(separator: "\n").last.map { Data($0.utf8) })
            let found = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "\(output)")
            #expect(found["status"] as? Int == 200, "\(output)")
            #expect((found["answer"] as? [String: Any])?["result"] as? String == "saved", "\(output)")
            let kept = try #require(found["kept"] as? [String])
            #expect(kept.count == 2, "the thumbnails were not made within 60 s: \(output)")
            // Each a JPEG within its size (the catalog believes nothing less).
            for (path, size) in zip(kept, [256, 512]) {
                let metadata = try MediaInspector().inspect(
                    BufferByteSource(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
                #expect(metadata.format == .jpeg && max(metadata.width ?? 0, metadata.height ?? 0) <= size, "\(path)")
            }
            // Stopped right after five more uploads, the server does not wait for their thumbnails,
            // and leaves no part of one.
            #expect((found["stopped"] as? Double ?? 99) < 10, "\(output)")
            #expect((found["partial"] as? [String])?.isEmpty == true, "\(output)")
            let verify = try CLI.run(["verify", "--library", library])
            #expect(verify.status == 0, "\(verify.stdout)")
            print(
                "upload answered in \(found["answered"] ?? "?") s; thumbnails kept \(found["waited"] ?? "?") s after it began; stopped in \(found["stopped"] ?? "?") s"
            )
        }
    }
}
