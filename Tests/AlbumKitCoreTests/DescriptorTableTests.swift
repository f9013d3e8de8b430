import Foundation
import Testing

@testable import AlbumKitCore

@Suite("The descriptor table is grown once, before a batch")
struct DescriptorTableTests {
    /// `FDSize` of /proc/self/status: how many descriptors the process's table holds now.
    private func tableSize() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("FDSize:") })
        return try #require(Int(line.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)))
    }

    @Test func reservingGrowsTheTableToTheCountAndNotBeyondTheLimit() throws {
        // Given a table smaller than a batch needs (tests run with other suites, so it may already be large)
        let before = try tableSize()
        let wanted = min(max(before * 2, 512), FileSystem.descriptorBudget + 48)
        try #require(wanted > before, "the open-file limit leaves no room to grow")
        // When it is reserved
        FileSystem.reserveDescriptorTable(for: wanted)
        // Then the table already holds that many, and no descriptor was left open
        #expect(try tableSize() >= wanted)
        let probe = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(probe) }
        #expect(fcntl(probe, F_DUPFD, Int32(wanted - 1)) == Int32(wanted - 1), "the highest slot is free")
        close(Int32(wanted - 1))
    }
}
