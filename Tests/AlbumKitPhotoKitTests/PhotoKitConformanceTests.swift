// The simulator exists only where Photos does not (Linux): on Apple platforms the kit runs against
// Photos on a device (Docs/apple.md).
#if !canImport(ObjectiveC)
    import AlbumKitConformance
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    extension LibraryKind {
        /// Photos through the PhotoKit simulator: a second asset for every creation request, no
        /// checksums, no video durations (the simulator reads no videos), and an app's title that
        /// keeps leading to its album after a rename.
        static let photoKit = LibraryKind(
            name: "PhotoKit", storesIdenticalBytesOnce: false, listsChecksums: false, listsVideoDurations: false,
            formerTitleLeadsToRenamedAlbum: true
        ) { directory in
            let photos = PhotoKitSimulation()
            photos.setAuthorizationAnswer(.authorized, for: .readWrite)
            photos.setAuthorizationAnswer(.authorized, for: .addOnly)
            var library = ConformanceLibrary(
                directory: directory, library: PhotoLibrary(backend: PhotoKitBackend(store: InMemoryAlbumStore())),
                // Another app: its own remembered albums.
                reopen: { PhotoLibrary(backend: PhotoKitBackend(store: InMemoryAlbumStore())) }
            ) { _ in
                // Photos documents no creation order; the rule takes the album whose photos go back
                // furthest (then the fuller one, then the smaller identifier): the user's photo dates
                // the older album.
                let photo = photos.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_000_000))
                let newer = photos.userCreatesAlbum(titled: "Twins")
                let older = photos.userCreatesAlbum(titled: "Twins", assetLocalIdentifiers: [photo])
                return .init(older: older, newer: newer, photosInOlder: 1)
            }
            library.run = { body in try await photos.run(body) }
            // The original resource Photos imported.
            library.readStoredSHA256 = { asset, _, _ in
                let resources = try #require(photos.asset(withLocalIdentifier: asset.id)).resources
                let original = try #require(resources.first { $0.type == .photo })
                return original.data.withUnsafeBytes { SHA256Hasher.hash($0) }
            }
            return library
        }
    }

    /// The conformance kit on Photos, through the simulator.
    @Suite struct PhotoKitConformanceTests: LibraryConformanceSuite {
        static let kind = LibraryKind.photoKit

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
#endif
