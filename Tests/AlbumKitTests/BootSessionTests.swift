import Foundation
import Testing

@testable import AlbumKitCore

/// The session an index records (boot and mount): the same for every file of one mount, and, where
/// the kernel names mounts uniquely, naming the mount itself, so a disk mounted again is another
/// session even when its mount id and device number come back the same (the `remount` scenario
/// mounts a disk again for real).
@Suite struct BootSessionTests {
    @Test func filesOfOneMountShareASessionThatNamesTheMount() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let existing = dir.appendingPathComponent("catalog.sqlite")
            try Data("x".utf8).write(to: existing)
            let session = BootSession.session(forFileAt: existing.path)
            #expect(session.hasPrefix(BootSession.id))
            // A file not made yet is on its folder's mount: the same session.
            #expect(BootSession.session(forFileAt: dir.appendingPathComponent("new.sqlite").path) == session)
            #if os(Linux)
                if let mount = try FileSystem.uniqueMountID(atPath: dir.path) {
                    #expect(session.hasSuffix("/m\(mount)"))
                } else {
                    // A kernel before 6.8 names no mount uniquely: the mount ids alone, as before.
                    #expect(!session.contains("/m"))
                }
            #endif
        }
    }
}
