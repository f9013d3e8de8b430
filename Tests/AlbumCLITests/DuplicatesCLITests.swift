import AlbumTestSupport
import Foundation
import Testing

/// `album duplicates` end to end: photos Pillow makes, saved into a catalog, decoded by libvips
/// through the real binary; the same picture found across resizing, recompression, EXIF stripping
/// and JPEG→HEIC conversion; burst frames never merged; extras removed only when asked.
@Suite(.onThreadsOfTheirOwn) struct DuplicatesCLITests {
    /// Writes into argv[1]: `ORIGINALS` originals (gradients, shapes, noise, blur, and ImageMagick's
    /// `rose:` and `logo:` when argv[3] names `convert`), each with EXIF (camera, capture time a minute
    /// apart) as `IMG_<n>.JPG`, and four copies: `IMG_<n>_half.jpg` (50 %), `IMG_<n>_q70.jpg` (quality
    /// 70), `IMG_<n>_web.jpg` (no EXIF), `IMG_<n>.HEIC` (pillow-heif, EXIF kept); and `BURSTS` bursts
    /// of five frames, `IMG_<5000 + 10b + f>.JPG`, the scene's shapes moved a few pixels a frame,
    /// 0.2 s apart (one EXIF second). Prints the originals' numbers and the bursts' frame names.
    static let generator = #"""
        import io, json, random, subprocess, sys
        from PIL import Image, ImageDraw, ImageFilter
        import pillow_heif
        folder, originals, convert, bursts = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
        def exif(second):
            e = Image.Exif()
            e[0x010F] = "Canon"; e[0x0110] = "Canon EOS R6"
            e.get_ifd(0x8769)[0x9003] = "2026:05:01 %02d:%02d:%02d" % (10 + second // 3600, second // 60 % 60, second % 60)
            return e.tobytes()
        def scene(seed, shift=0):
            r = random.Random(seed)
            w, h = r.choice([(800, 600), (600, 800), (900, 600)])
            kind = seed % 5
            if kind == 0: img = Image.linear_gradient("L").resize((w, h)).convert("RGB").rotate(r.uniform(0, 360))
            elif kind == 1: img = Image.effect_noise((w, h), r.uniform(20, 80)).convert("RGB")
            elif kind == 2: img = Image.radial_gradient("L").resize((w, h)).convert("RGB")
            elif kind == 3 and convert != "-":
                builtin = r.choice(["rose:", "logo:", "wizard:", "granite:"])
                data = subprocess.run([convert, builtin, "-resize", "%dx%d!" % (w, h), "png:-"], capture_output=True, check=True).stdout
                img = Image.open(io.BytesIO(data)).convert("RGB")
            else: img = Image.new("RGB", (w, h), tuple(r.randrange(256) for _ in range(3)))
            d = ImageDraw.Draw(img)
            for _ in range(r.randrange(3, 10)):
                x0, y0 = r.randrange(w) + shift * r.randrange(2, 6), r.randrange(h) + shift * r.randrange(0, 4)
                x1, y1 = x0 + r.randrange(20, w // 2), y0 + r.randrange(20, h // 2)
                getattr(d, r.choice(["rectangle", "ellipse"]))([x0, y0, x1, y1], fill=tuple(r.randrange(256) for _ in range(3)))
            if r.random() < 0.3: img = img.filter(ImageFilter.GaussianBlur(r.uniform(0.5, 3)))
            return img
        for n in range(originals):
            number = 1000 + n
            img = scene(n)
            tags = exif(n * 60)
            img.save("%s/IMG_%d.JPG" % (folder, number), quality=95, exif=tags)
            original = Image.open("%s/IMG_%d.JPG" % (folder, number))
            original.resize((img.width // 2, img.height // 2), Image.LANCZOS).save("%s/IMG_%d_half.jpg" % (folder, number), quality=90, exif=tags)
            original.save("%s/IMG_%d_q70.jpg" % (folder, number), quality=70, exif=tags)
            original.save("%s/IMG_%d_web.jpg" % (folder, number), quality=90)
            pillow_heif.from_pillow(original).save("%s/IMG_%d.HEIC" % (folder, number), quality=80, exif=tags)
        frames = []
        for b in range(bursts):
            for f in range(5):
                name = "IMG_%d.JPG" % (5000 + 10 * b + f)
                scene(100 + b, shift=f).save("%s/%s" % (folder, name), quality=92, exif=exif(7200 + b * 60))
                frames.append(name)
        print(json.dumps({"originals": [1000 + n for n in range(originals)], "frames": frames}))
        """#

    /// `album duplicates` with `arguments`; the test ends (skipped outside CI, failed in CI) when
    /// libvips42 is missing.
    static func duplicates(_ arguments: [String]) throws -> CLI.Run {
        let run = try CLI.run(arguments)
        if run.status != 0, run.stderr.contains("libvips42"), !ExternalTool.inCI {
            TestRunReport.shared.skipped("test", because: "libvips42 is not installed")
            try Test.cancel("skipped: libvips42 is not installed (apt-get install libvips42); CI runs it")
        }
        return run
    }

    struct Made: Decodable {
        var originals: [Int]
        var frames: [String]
    }

    /// Slow (about 20 s alone, minutes on a loaded machine): 350 photos made, saved and decoded.
    @Test func samePictureRecallIsAtLeast99PercentAndNoBurstIsMerged() throws {
        try CLI.withTemporaryDirectory { dir in
            // Given 60 originals with four copies each and 10 bursts of five frames, saved into a catalog.
            let photos = dir.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let convert = ExternalTool.isInstalled("convert") ? ExternalTool.path("convert")! : "-"
            let output = try ExternalTool.python(
                Self.generator, modules: ["PIL", "pillow_heif"], arguments: [photos.path, "60", convert, "10"])
            let made = try JSONDecoder().decode(Made.self, from: Data(output.utf8))
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let saved = try CLI.run(args + ["save", "--quiet", "--album", "Recall", "--recursive", photos.path])
            #expect(saved.status == 0, "\(saved.stderr)")

            // When the duplicates are listed.
            let listed = try Self.duplicates(args + ["duplicates", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let report = try #require(listed.json() as? [String: Any])
            let groups = try #require(report["groups"] as? [[String: Any]])
            var pictureOf: [String: Int] = [:]
            for (number, group) in groups.enumerated() where group["kind"] as? String == "same-picture" {
                for member in group["members"] as? [[String: Any]] ?? [] {
                    if let name = member["name"] as? String { pictureOf[name] = number }
                }
            }

            // Then each copy is in its original's group, nearly always.
            var found = 0
            var copies = 0
            for number in made.originals {
                let original = pictureOf["IMG_\(number).JPG"]
                for copy in [
                    "IMG_\(number)_half.jpg", "IMG_\(number)_q70.jpg", "IMG_\(number)_web.jpg", "IMG_\(number).HEIC",
                ] {
                    copies += 1
                    if let original, pictureOf[copy] == original { found += 1 }
                }
            }
            let recall = Double(found) / Double(copies)
            print("same-picture recall: \(found) of \(copies) copies (\(String(format: "%.1f", recall * 100)) %)")
            #expect(recall >= 0.99, "\(found) of \(copies)")
            // No two originals and no two frames of a burst are one picture.
            let originalsMerged = Set(made.originals.compactMap { pictureOf["IMG_\($0).JPG"] }).count
            #expect(originalsMerged == made.originals.compactMap { pictureOf["IMG_\($0).JPG"] }.count)
            let framesInPictures = made.frames.compactMap { pictureOf[$0] }
            print("burst frames merged: \(framesInPictures.count - Set(framesInPictures).count)")
            #expect(Set(framesInPictures).count == framesInPictures.count, "burst frames merged")
            // The bursts are listed as similar, as bursts.
            let bursts = groups.filter { $0["kind"] as? String == "similar" && $0["burst"] as? Bool == true }
            #expect(bursts.count >= 8, "\(bursts.count) bursts listed of 10")
            #expect((report["hashesComputed"] as? Int ?? 0) >= 340)

            // A second run reuses every hash from the cache, and finds the same groups.
            let again = try CLI.run(args + ["duplicates", "--json"])
            let second = try #require(again.json() as? [String: Any])
            #expect(second["hashesComputed"] as? Int == 0)
            #expect((second["hashesReused"] as? Int ?? 0) >= 340)
            #expect((second["groups"] as? [[String: Any]])?.count == groups.count)
        }
    }

    @Test func extrasGoToRecentlyDeletedOnlyWhenAskedKeepingTheLargest() throws {
        try CLI.withTemporaryDirectory { dir in
            let photos = dir.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            _ = try ExternalTool.python(
                Self.generator, modules: ["PIL", "pillow_heif"], arguments: [photos.path, "2", "-", "0"])
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            #expect(try CLI.run(args + ["save", "--quiet", "--album", "Trip", "--recursive", photos.path]).status == 0)

            // Listing removes nothing; a dry run says what would go.
            let listed = try Self.duplicates(args + ["duplicates"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("same picture, 5 files"), "\(listed.stdout)")
            #expect(listed.stdout.contains("keep   IMG_1000.JPG"), "\(listed.stdout)")
            #expect(listed.stdout.contains("in Trip"), "\(listed.stdout)")
            let dry = try CLI.run(args + ["duplicates", "--remove-extra", "--dry-run", "--json"])
            let plan = try #require(dry.json() as? [String: Any])
            #expect((plan["wouldRemove"] as? [String])?.count == 8)
            #expect((try CLI.run(args + ["assets", "--json"]).json() as? [[String: Any]])?.count == 10)

            // Removing keeps the best of each picture and puts the rest in recently deleted.
            let removed = try CLI.run(args + ["duplicates", "--remove-extra"])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("removed 8 extra copies"), "\(removed.stdout)")
            // One file of each picture is left: for the gradient the original JPEG (the largest); for the
            // noise picture whichever copy is largest (its HEIC may outweigh its JPEG).
            let left = ((try CLI.run(args + ["assets", "--json"]).json() as? [[String: Any]]) ?? [])
                .compactMap { $0["file"] as? String }
            #expect(left.count == 2, "\(left)")
            #expect(left.contains("IMG_1000.JPG"), "\(left)")
            #expect(left.contains { $0.hasPrefix("IMG_1001") } && !left.contains { $0.contains("_half") }, "\(left)")
            let deleted = try CLI.run(args + ["deleted", "--json"])
            #expect(deleted.stdout.contains("IMG_1000_q70.jpg"), "\(deleted.stdout)")

            // --dry-run alone is a usage error.
            #expect(try CLI.run(args + ["duplicates", "--dry-run"]).status == 2)
        }
    }
}
