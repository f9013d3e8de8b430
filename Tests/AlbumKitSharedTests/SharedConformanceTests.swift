#if os(Linux)
    import AlbumKitConformance
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension LibraryKind {
        /// The shared library on the local PostgreSQL and SeaweedFS: a moved file is copied to the
        /// object store and stays.
        static let shared = LibraryKind(name: "shared", movesFiles: false) { directory in
            let shared = try SharedTestLibrary()
            return ConformanceLibrary(
                directory: directory, library: shared.library,
                reopen: {
                    PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                }
            ) { _ in
                try shared.sql(
                    "INSERT INTO album (id, title, title_key, created_at) VALUES "
                        + "('newer', 'Twins', $1, 200), ('older', 'twins', $1, 100)", [try AlbumTitle("Twins").key])
                return .init(older: "older", newer: "newer")
            }
        }
    }

    /// The conformance kit on the shared library. Nested in SharedServerTests: one at a time with
    /// the other server tests (one of them stops the object store), skipped with the printed reason
    /// where the servers cannot start, and failing in CI when they cannot.
    extension SharedServerTests {
        @Suite struct SharedConformanceTests: LibraryConformanceSuite {
            static let kind = LibraryKind.shared

            @Test func firstSaveCreatesTheAlbumAndTheNextFindsIt() async throws {
                try await conformance.firstSaveCreatesTheAlbumAndTheNextFindsIt()
            }
            @Test func albumTitlesAreTheAlbumsTitlesInTheirOrder() async throws {
                try await conformance.albumTitlesAreTheAlbumsTitlesInTheirOrder()
            }
            @Test func fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne() async throws {
                try await conformance.fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne()
            }
            @Test func anAlbumDeletedBehindItsBackIsRecreated() async throws {
                try await conformance.anAlbumDeletedBehindItsBackIsRecreated()
            }
            @Test func aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain() async throws {
                try await conformance.aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain()
            }
            @Test func duplicateTitlesResolveToTheOldest() async throws {
                try await conformance.duplicateTitlesResolveToTheOldest()
            }
            @Test func aBadFileFailsAloneAndTheRestOfTheBatchSaves() async throws {
                try await conformance.aBadFileFailsAloneAndTheRestOfTheBatchSaves()
            }

            @Test func anEmptyPhotoIsDamagedNamingItsCause() async throws {
                try await conformance.anEmptyPhotoIsDamagedNamingItsCause()
            }
            @Test func identicalBytesAreStoredAsTheyCame() async throws {
                try await conformance.identicalBytesAreStoredAsTheyCame()
            }
            @Test func renameKeepsTheID() async throws { try await conformance.renameKeepsTheID() }
            @Test func invalidTitlesAreRefused() async throws { try await conformance.invalidTitlesAreRefused() }
            @Test func assetsAreAddedAndRemovedAndEmptyAlbumsDeleted() async throws {
                try await conformance.assetsAreAddedAndRemovedAndEmptyAlbumsDeleted()
            }
            @Test func everyLibraryAnswersAccessAndPagesWithFilters() async throws {
                try await conformance.everyLibraryAnswersAccessAndPagesWithFilters()
            }
            @Test func changesReportWhatTheAppAndOthersDo() async throws {
                try await conformance.changesReportWhatTheAppAndOthersDo()
            }
            @Test func descriptionsGivenWhenSavingAreKept() async throws {
                try await conformance.descriptionsGivenWhenSavingAreKept()
            }
            @Test func positionsInAnAlbumAnswerAsItsPages() async throws {
                try await conformance.positionsInAnAlbumAnswerAsItsPages()
            }

            @Test func anAlbumsPhotosAreFoundByTheirNames() async throws {
                try await conformance.anAlbumsPhotosAreFoundByTheirNames()
            }
        }
    }
#endif
