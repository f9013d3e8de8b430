#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// `PhotoLibrary.sharedCatalog(at:)` opens as `catalog(at:)` does: it returns at once, connects in the
        /// background, and the first use throws what connecting threw (the "Shared libraries" article).
        @Suite struct SharedOpeningTests {
            @Test func aURLThatIsNoSharedLibraryIsRefusedAtOnce() throws {
                #expect(throws: AlbumError.self) {
                    try PhotoLibrary.sharedCatalog(at: URL(string: "https://example.com/photos")!)
                }
            }

            @Test func aServerThatCannotBeReachedFailsTheFirstUseNotTheConstructor() async throws {
                // Port 1 on loopback: nothing listens there, the connection is refused.
                let started = ContinuousClock.now
                let library = try PhotoLibrary.sharedCatalog(at: URL(string: "postgres://nobody@127.0.0.1:1/photos")!)
                #expect(ContinuousClock.now - started < .seconds(1))
                do {
                    _ = try await library.albums()
                    Issue.record("listing a library whose server is unreachable succeeded")
                } catch let error as AlbumError {
                    #expect(error.code == .libraryNotFound, "\(error)")
                }
            }
        }
    }
#endif
