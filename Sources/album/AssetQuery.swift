import AlbumKit
import Foundation

/// What `show` and `assets` are asked to list: the order and the filter their options give
/// (`--from`, `--to`, `--camera`, `--lens`, `--rating`, `--kind`, `--near`, `--box`, `--name`, and for
/// `assets` `--album`),
/// checked before the library is opened. Assets of one time are listed by original name (then id),
/// so one import lists as its files were named.
///
/// ```swift
/// let query = try AssetQuery(arguments, defaultOrder: .dateAdded)
/// let page = try await library.assets(orderedBy: query.order, matching: query.filter, limit: 500)
/// let rows = query.sorted(page.assets)
/// ```
struct AssetQuery {
    let order: AssetOrder
    /// Whether `--order` was given.
    let orderGiven: Bool
    var filter: AssetFilter
    /// `--album`, to look up once the library is open.
    let album: AlbumReference?

    /// - Throws: a usage failure naming the option whose value is not one.
    init(_ arguments: Arguments, defaultOrder: AssetOrder) throws {
        switch arguments.value(.order) {
        case nil: order = defaultOrder
        case "added": order = .dateAdded
        case "taken": order = .captureDate
        case let other?:
            throw AlbumCommand.UsageFailure(message: "--order takes 'added' or 'taken', not '\(other)'")
        }
        orderGiven = arguments.has(.order)
        filter = AssetFilter()
        let from = arguments.value(.from)
        let to = arguments.value(.to)
        if from != nil || to != nil {
            do {
                filter.taken = try AssetFilter.takenRange(from: from, to: to)
            } catch let error as AlbumError {
                throw AlbumCommand.UsageFailure(message: (from != nil ? "--from/--to: " : "--to: ") + error.message)
            }
        }
        switch arguments.value(.kind) {
        case nil: break
        case "photo": filter.kinds = [.photo]
        case "video": filter.kinds = [.video]
        case "raw": filter.formats = [.raw, .dng]
        case "live":
            filter.kinds = [.photo]
            filter.livePhotos = true
        case let other?:
            throw AlbumCommand.UsageFailure(message: "--kind takes 'photo', 'video', 'raw' or 'live', not '\(other)'")
        }
        if let camera = arguments.value(.camera) {
            let trimmed = camera.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                throw AlbumCommand.UsageFailure(message: "--camera needs some of the camera's name, such as 'EOS R6'")
            }
            filter.camera = trimmed
        }
        if let lens = arguments.value(.lens) {
            let trimmed = lens.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                throw AlbumCommand.UsageFailure(message: "--lens needs some of the lens's name, such as '24-105'")
            }
            filter.lens = trimmed
        }
        if let text = arguments.value(.rating) {
            guard let stars = Int(text), (-1...5).contains(stars) else {
                throw AlbumCommand.UsageFailure(
                    message: "--rating takes the fewest stars to list, 0 to 5 (-1: rejected ones too), not '\(text)'")
            }
            filter.rating = stars
        }
        if let name = arguments.value(.name) {
            guard !name.isEmpty else {
                throw AlbumCommand.UsageFailure(message: "--name needs a pattern, such as 'IMG_00*.JPG'")
            }
            filter.name = name
        }
        if arguments.has(.near) && arguments.has(.box) {
            throw AlbumCommand.UsageFailure(message: "give --near or --box, not both")
        }
        if let near = arguments.value(.near) {
            let numbers = try Self.numbers(near, option: "--near", shape: "LAT,LON[,KM]", counts: [2, 3])
            guard Self.isPlace(numbers[0], numbers[1]) else {
                throw AlbumCommand.UsageFailure(
                    message: "--near takes a latitude (-90 to 90) and a longitude (-180 to 180), not '\(near)'")
            }
            let kilometres = numbers.count == 3 ? numbers[2] : 1
            guard kilometres > 0 else {
                throw AlbumCommand.UsageFailure(message: "--near's distance must be more than 0 km, not '\(near)'")
            }
            filter.area = .near(GeoLocation(latitude: numbers[0], longitude: numbers[1]), kilometres: kilometres)
        }
        if let box = arguments.value(.box) {
            let n = try Self.numbers(box, option: "--box", shape: "SOUTH,WEST,NORTH,EAST", counts: [4])
            guard Self.isPlace(n[0], n[1]), Self.isPlace(n[2], n[3]), n[0] <= n[2] else {
                throw AlbumCommand.UsageFailure(
                    message:
                        "--box takes SOUTH,WEST,NORTH,EAST in degrees, the south not above the north, not '\(box)'")
            }
            filter.area = .box(south: n[0], west: n[1], north: n[2], east: n[3])
        }
        album = arguments.value(.album).map(AlbumReference.init)
    }

    /// `text` as comma-separated decimal numbers, as many as one of `counts`.
    private static func numbers(_ text: String, option: String, shape: String, counts: [Int]) throws -> [Double] {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard counts.contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }) else {
            throw AlbumCommand.UsageFailure(message: "\(option) takes \(shape) in decimal degrees, not '\(text)'")
        }
        return numbers.map { $0! }
    }

    private static func isPlace(_ latitude: Double, _ longitude: Double) -> Bool {
        abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Looks `--album` up in `library` (once it is open).
    mutating func resolveAlbum(in library: PhotoLibrary) async throws {
        if let album { filter.albumID = try await album.id(in: library) }
    }

    /// `assets` in `order`, those of one time by original name, then id.
    func sorted(_ assets: [AssetInfo], in order: AssetOrder) -> [AssetInfo] {
        assets.map { (key: order.sortKey(of: $0), name: $0.originalFilename ?? "", asset: $0) }
            .sorted { ($0.key, $0.name, $0.asset.id) < ($1.key, $1.name, $1.asset.id) }
            .map(\.asset)
    }

    /// Splits a page off its last assets of one time (in `order`), which the next page may
    /// continue: they are listed with it, so the names of one time are in order across pages.
    func heldBack(_ assets: [AssetInfo], in order: AssetOrder) -> (shown: [AssetInfo], held: [AssetInfo]) {
        guard let last = assets.last else { return ([], []) }
        let key = order.sortKey(of: last)
        let start = assets.lastIndex { order.sortKey(of: $0) != key }.map { $0 + 1 } ?? 0
        return (Array(assets[..<start]), Array(assets[start...]))
    }
}
