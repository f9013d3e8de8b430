import Testing

@testable import AlbumKitCore
@testable import AlbumKitCatalog

@Suite("Reading values from a damaged catalog")
struct DamagedValueTests {
    @Test func aRealThatIsNoIntegerReadsAsNone() {
        // Given reals a damaged catalog can hold where an integer belongs (repair read such a
        // position and crashed converting 1e300)
        let row = Row(values: [.real(.nan), .real(.infinity), .real(-.infinity), .real(1e300), .real(-42.9), .real(7)])
        // Then only the representable ones read as integers (toward zero)
        #expect(row.integer(0) == nil && row.integer(1) == nil && row.integer(2) == nil && row.integer(3) == nil)
        #expect(row.integer(4) == -42 && row.integer(5) == 7)
    }
}
