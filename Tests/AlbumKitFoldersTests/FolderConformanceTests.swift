import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

extension LibraryKind {
    /// The folder library: its files are the truth, kept byte for byte, listed without checksums and
    /// copied in (a moved file stays); an album is the folder its photos are in.
    static let folders = LibraryKind(
        name: "folders", listsChecksums: false, movesFiles: false, keepsGivenDescriptions: false,
        albumsHoldTheirPhotos: true, remembersDeletedAlbums: false
    ) { directory in
        let root = directory.appendingPathComponent("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let trash = FolderTrash(homeTrash: directory.appendingPathComponent("Trash").path)
        var library = ConformanceLibrary(
            directory: directory, library: PhotoLibrary(backend: FolderBackend(root: root, trash: trash)),
            reopen: { PhotoLibrary(backend: FolderBackend(root: root, trash: trash)) }
        ) { fixture in
            // One folder name cannot exist twice: there is no second album to resolve between, and
            // the one album is found every time (case variants follow FolderTitleLookupTests).
            .init(older: try await fixture.library.createAlbum(titled: "Twins").id, newer: nil)
        }
        // Deleting through the library is the user's own act and forgets the title; behind its
        // back is the user removing the album's folder in a file manager.
        library.deleteAlbumBehindItsBack = { title, _ in
            try FileManager.default.removeItem(at: root.appendingPathComponent(title))
        }
        return library
    }
}

/// The conformance kit on the folder library.
@Suite struct FolderConformanceTests: LibraryConformanceSuite {
    static let kind = LibraryKind.folders

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
