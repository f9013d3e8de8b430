import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// A folder library pictures a clip with the `.THM` beside it: that file is read only when it is a
/// regular file in the clip's folder. A link there (to a private picture elsewhere, or to a device)
/// is never followed: the clip's frame is decoded instead.
@Suite struct ClipThumbnailTrustTests {
    @Test(arguments: ["a file", "a link to a picture outside", "a folder", "a link to a device"])
    func theClipsThumbnailIsReadOnlyWhenItIsAFileBesideIt(what: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let album = dir.appendingPathComponent("Trips")
            let outside = dir.appendingPathComponent("private")
            try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            let picture = Fixture.uniqueJPEG("private picture")
            Fixture.write(picture, named: "secret.jpg", in: outside)
            Fixture.write(Data("the clip".utf8), named: "MVI_0001.MP4", in: album)
            let thumbnail = album.appendingPathComponent("MVI_0001.THM")
            switch what {
            case "a file": Fixture.write(picture, named: "MVI_0001.THM", in: album)
            case "a link to a picture outside":
                try FileManager.default.createSymbolicLink(
                    atPath: thumbnail.path, withDestinationPath: outside.appendingPathComponent("secret.jpg").path)
            case "a folder": try FileManager.default.createDirectory(at: thumbnail, withIntermediateDirectories: false)
            default:
                try FileManager.default.createSymbolicLink(atPath: thumbnail.path, withDestinationPath: "/dev/zero")
            }
            let read = PreviewPipeline.clipThumbnail(beside: album.appendingPathComponent("MVI_0001.MP4").path)
            #expect(read.map { Data($0) } == (what == "a file" ? picture : nil), "\(what)")
            #expect(try Data(contentsOf: outside.appendingPathComponent("secret.jpg")) == picture)
        }
    }
}
