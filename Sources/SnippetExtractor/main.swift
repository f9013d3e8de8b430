import Foundation

// SnippetExtractor README.md Snippets.swift
//
// Turns every fenced block whose info string is exactly `swift` into a function
// `snippet<N>(photoURL:urls:jpegBytes:)` (N counts from 1 in README order; `async` only when the block
// uses `await`, so a synchronous example runs on the main thread as in a script) and a table
// `readmeSnippets` of them. `import` lines move to the top of the file. Blocks such as ```swift Package.swift (a
// manifest fragment) are not examples and are left out.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: SnippetExtractor README.md OUTPUT.swift\n".utf8))
    exit(2)
}
let markdown = try String(contentsOfFile: arguments[1], encoding: .utf8)

var blocks: [(line: Int, body: [String])] = []
var current: [String]?
var start = 0
for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if current == nil, trimmed.hasPrefix("```") {
        if trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces) == "swift" {
            current = []
            start = number + 2
        } else if trimmed != "```" {
            current = nil
        }
    } else if current != nil, trimmed == "```" {
        blocks.append((start, current!))
        current = nil
    } else if current != nil {
        current!.append(String(line))
    }
}

var imports: Set<String> = ["import Foundation"]
var functions: [String] = []
var table: [String] = []
for (index, block) in blocks.enumerated() {
    var body: [String] = []
    for line in block.body {
        if line.hasPrefix("import ") { imports.insert(line) } else { body.append("    " + line) }
    }
    let isAsync = body.contains { $0.contains("await ") }
    functions.append(
        """
        // README.md line \(block.line)
        func snippet\(index + 1)(photoURL: URL, urls: [URL], jpegBytes: Data) \(isAsync ? "async " : "")throws {
        \(body.joined(separator: "\n"))
        }
        """)
    table.append("    .\(isAsync ? "async" : "sync")(snippet\(index + 1)),")
}
let source = """
    // Generated from README.md by SnippetExtractor. Do not edit.
    \(imports.sorted().joined(separator: "\n"))

    \(functions.joined(separator: "\n\n"))

    enum ReadmeSnippet: Sendable {
        case sync(@Sendable (URL, [URL], Data) throws -> Void)
        case async(@Sendable (URL, [URL], Data) async throws -> Void)
    }

    let readmeSnippets: [ReadmeSnippet] = [
    \(table.joined(separator: "\n"))
    ]

    """
try source.write(toFile: arguments[2], atomically: true, encoding: .utf8)
