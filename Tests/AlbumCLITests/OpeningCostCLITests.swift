import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// What a command pays to open a catalog before its own work, counted in a real `album` process
/// with `strace`: every read transaction of SQLite takes its shared lock (an `fcntl` on the
/// 510-byte shared range) and checks for a hot journal and a WAL, about eight system calls.
@Suite(.onThreadsOfTheirOwn) struct OpeningCostCLITests {
    /// The read transactions (shared locks taken) of `album ARGS`, traced with `strace -f`.
    static func readTransactions(_ arguments: [String], in dir: URL) throws -> Int {
        let strace = try ExternalTool.require("strace")
        let trace = dir.appendingPathComponent("trace-\(UUID().uuidString).txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-qq", "-e", "trace=fcntl", "-o", trace.path, CLI.binary.path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: trace, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.contains("F_RDLCK") && $0.contains("l_len=510") }.count
    }

    /// Opening reads the index's identity, version, boot session and proof of the journal (nine
    /// statements) in one read transaction, then brings it up to date and reads the files of purged
    /// photos left to remove in the same call: `album albums` on a library of a few photos took 18
    /// read transactions, 10 now.
    @Test func openingReadsTheIndexInOneTransaction() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("Opening.albumlibrary").path]
            for n in 0..<2 {
                let photo = dir.appendingPathComponent("IMG_\(n).JPG")
                try Fixture.tinyJPEG("opening \(n)").write(to: photo)
                let saved = try CLI.run(args + ["save", "--quiet", "--album", "Trip", photo.path])
                #expect(saved.status == 0, "\(saved.stderr)")
            }
            let listing = try Self.readTransactions(args + ["albums"], in: dir)
            #expect(listing <= 10, "album albums took \(listing) read transactions")
        }
    }
}
