import Testing
@testable import AlbumKitMedia

@Suite struct SniffingTests {
    @Test func emptyIsNotMedia() {
        #expect(throws: MediaInspectionError.self) { try MediaInspector().inspect(BufferByteSource(bytes: [])) }
    }
}
