import AlbumKitMedia
import AlbumTestSupport
import Foundation
import Testing

/// README's Swift examples, compiled from README's own text by the `ReadmeSnippets` build plugin into
/// `readme-snippet-runner`, each run as its own process the way a user's script runs.
@Suite(.onThreadsOfTheirOwn) struct ReadmeTests {
    static let runner = CLI.binary.deletingLastPathComponent().appendingPathComponent("readme-snippet-runner")

    static func run(_ arguments: [String], in directory: URL) throws -> CLI.Run {
        let process = Process()
        process.executableURL = runner
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLI.Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }

    static var count: Int {
        get throws {
            let listing = try CLI.withTemporaryDirectory { try run([], in: $0) }
            return Int(listing.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
                ?? 0
        }
    }

    /// The fresh-machine command, as README writes it (`swift run album` is the built `album`), run in
    /// the package folder with an empty home: saves the examples and lists them.
    @Test func freshMachineCommandWorksAsWritten() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try #require(
            readme.components(separatedBy: "\n").first { $0.hasPrefix("swift run album save") },
            "README lost its fresh-machine command")
        try CLI.withTemporaryDirectory { home in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                "-c", command.replacingOccurrences(of: "swift run album", with: "'\(CLI.binary.path)'"),
            ]
            process.currentDirectoryURL = CLI.packageRoot
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let examples = try FileManager.default.contentsOfDirectory(atPath: CLI.examples.path)
            #expect(examples.count >= 4)
            for name in examples {
                #expect(text.contains("saved Examples/\(name)"))
                #expect(text.contains("\n\(name) "), "show lists \(name)")
            }
            let library = home.appendingPathComponent(".local/share/albumkit/Photos.albumlibrary/catalog.sqlite")
            #expect(FileManager.default.fileExists(atPath: library.path))
        }
    }

    @Test func readmeLinksToDocsThatExist() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let links = readme.components(separatedBy: "](").dropFirst().compactMap { $0.split(separator: ")").first }
            .map(String.init).filter { !$0.hasPrefix("http") }
        #expect(links.count >= 5)
        for link in links {
            #expect(
                FileManager.default.fileExists(atPath: CLI.packageRoot.appendingPathComponent(link).path),
                "README links to \(link), which does not exist")
        }
    }

    @Test func readmeHasItsExamples() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let fences = readme.components(separatedBy: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces) == "```swift"
        }
        #expect(fences.count >= 2)
        #expect(try Self.count == fences.count, "the runner was built from another README")
    }

    @Test func everyExampleRunsAndSaves() throws {
        let count = try Self.count
        #expect(count >= 2)
        for number in 1...max(1, count) { try run(example: number) }
    }

    private func run(example number: Int) throws {
        try CLI.withTemporaryDirectory { dir in
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let others = [
                CLI.examples.appendingPathComponent("garden.png").path, dir.appendingPathComponent("gone.jpg").path,
            ]
            let run = try Self.run([String(number), photo] + others, in: dir)
            #expect(run.status == 0, "example \(number): \(run.stderr)")
            #expect(!run.stdout.contains("Optional("), "example \(number) prints an optional: \(run.stdout)")
            #expect(!run.stdout.contains("failed"), "example \(number): \(run.stdout)")
            // Whatever library an example saved into holds the photo, and is healthy.
            let library = dir.appendingPathComponent("Photos.albumlibrary")
            #expect(FileManager.default.fileExists(atPath: library.path), "example \(number) saved nothing")
            let albums = try CLI.run(["albums", "--json", "--library", library.path])
            let list = try #require(albums.json() as? [[String: Any]])
            #expect(list.first?["title"] as? String == "Touch Code Magazine")
            #expect((list.first?["count"] as? Int ?? 0) >= 1)
            #expect(try CLI.run(["verify", "--library", library.path]).status == 0)
        }
    }
}
