import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

@Suite("XDG user directories")
struct XDGUserDirectoriesTests {
    /// A fake home with `~/.config/user-dirs.dirs` holding `contents` (no file when `nil`).
    private func withHome(
        _ contents: String?, configHome: String? = nil,
        _ body: (_ home: String, _ dirs: XDGUserDirectories) throws -> Void
    ) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        if let contents {
            try contents.write(toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
        }
        var environment = ["HOME": home]
        if let configHome { environment["XDG_CONFIG_HOME"] = configHome }
        try body(home, XDGUserDirectories(environment: environment))
    }

    @Test func homeRelativeValue() throws {
        // Given the file xdg-user-dirs-update writes
        let file = """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_PICTURES_DIR="$HOME/Pictures"
            """
        try withHome(file) { home, dirs in
            // When / Then
            #expect(dirs.picturesDirectory.path == home + "/Pictures")
            #expect(dirs.configuredDirectory("DESKTOP") == home + "/Desktop")
        }
    }

    @Test(arguments: ["Bilder", "Images", "Изображения", "图片", "Mes Photos"])
    func localizedNames(_ name: String) throws {
        // Given a localized Pictures folder
        try withHome("XDG_PICTURES_DIR=\"$HOME/\(name)\"\n") { home, dirs in
            // Then it is used as is
            #expect(dirs.picturesDirectory.path == home + "/" + name)
        }
    }

    @Test func absoluteValueAndTrailingSlash() throws {
        // Given an absolute path with a trailing slash
        try withHome("XDG_PICTURES_DIR=\"/data/Photos/\"\n") { _, dirs in
            // Then the slash is dropped
            #expect(dirs.picturesDirectory.path == "/data/Photos")
        }
    }

    @Test func escapesAreUndone() throws {
        // Given a value with shell escapes (the writer escapes $, ` and \)
        try withHome("XDG_PICTURES_DIR=\"$HOME/My \\$ \\`Pics\\` \\\\ \\\"x\\\"\"\n") { home, dirs in
            // Then each backslash stands for the next character
            #expect(dirs.picturesDirectory.path == home + "/My $ `Pics` \\ \"x\"")
        }
    }

    @Test func lastLineWins() throws {
        // Given duplicate keys
        let file = """
            XDG_PICTURES_DIR="$HOME/First"
            XDG_PICTURES_DIR="$HOME/Second"
            """
        try withHome(file) { home, dirs in
            #expect(dirs.picturesDirectory.path == home + "/Second")
        }
    }

    @Test func invalidLinesAreIgnored() throws {
        // Given a valid line followed by invalid ones (no quotes, relative, unterminated, comment)
        let file = """
            XDG_PICTURES_DIR="$HOME/Good"
            XDG_PICTURES_DIR=$HOME/NoQuotes
            XDG_PICTURES_DIR="Relative"
            XDG_PICTURES_DIR="$HOME/Unterminated
            # XDG_PICTURES_DIR="$HOME/Comment"
            XDG_PICTURES_DIRX="$HOME/OtherKey"
            """
        try withHome(file) { home, dirs in
            // Then the last valid line is used
            #expect(dirs.picturesDirectory.path == home + "/Good")
        }
    }

    @Test func blanksAroundTheKeyAndEquals() throws {
        // Given leading blanks and blanks around "="
        try withHome(" \tXDG_PICTURES_DIR =  \"$HOME/Fotos\"\n") { home, dirs in
            #expect(dirs.picturesDirectory.path == home + "/Fotos")
        }
    }

    /// The home folder in another spelling, or a folder holding it, was taken as the Pictures
    /// folder: every folder of the user's with a photo became an album (`delete` moved
    /// `~/Documents/taxes` to the Trash).
    @Test(arguments: ["\"$HOME/./\"", "\"$HOME/Pictures/..\"", "\"$HOME/..\"", "\"/\"", "LINK"])
    func homeInAnotherSpellingOrAFolderAboveItFallsBackToPictures(_ value: String) throws {
        try withHome(nil) { home, _ in
            let link = home + "-link"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: home)
            defer { try? FileManager.default.removeItem(atPath: link) }
            let setting = value == "LINK" ? "\"\(link)\"" : value
            try "XDG_PICTURES_DIR=\(setting)\n".write(
                toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
            #expect(XDGUserDirectories(environment: ["HOME": home]).picturesDirectory.path == home + "/Pictures")
            // And the other way round: $HOME a symlink, the setting its target.
            try "XDG_PICTURES_DIR=\"\(home)\"\n".write(
                toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
            #expect(XDGUserDirectories(environment: ["HOME": link]).picturesDirectory.path == link + "/Pictures")
        }
    }

    @Test(arguments: ["\"$HOME\"", "\"$HOME/\""])
    func homeItselfFallsBackToPictures(_ value: String) throws {
        // Given the value xdg-user-dirs-update writes after the folder was deleted
        try withHome("XDG_PICTURES_DIR=\(value)\n") { home, dirs in
            // Then album folders never go straight into $HOME
            #expect(dirs.picturesDirectory.path == home + "/Pictures")
        }
    }

    @Test func missingFileFallsBackToPictures() throws {
        try withHome(nil) { home, dirs in
            #expect(dirs.configuredDirectory("PICTURES") == nil)
            #expect(dirs.picturesDirectory.path == home + "/Pictures")
        }
    }

    @Test func theEnvironmentIsUsedWhenTheFileSaysNothing() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        // Given XDG_PICTURES_DIR exported and no user-dirs.dirs
        let exported = XDGUserDirectories(environment: ["HOME": home, "XDG_PICTURES_DIR": "/srv/photos/"])
        // Then it is the Pictures folder, as xdg-user-dir answers
        #expect(exported.picturesDirectory.path == "/srv/photos")
        // And a relative value, or the home itself, is not
        #expect(
            XDGUserDirectories(environment: ["HOME": home, "XDG_PICTURES_DIR": "Pics"]).picturesDirectory.path
                == home + "/Pictures")
        #expect(
            XDGUserDirectories(environment: ["HOME": home, "XDG_PICTURES_DIR": home]).picturesDirectory.path
                == home + "/Pictures")
        // And a line in user-dirs.dirs wins over it, as the script sources the file over the environment
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".write(
            toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
        #expect(exported.picturesDirectory.path == home + "/Bilder")
    }

    @Test func missingKeyFallsBackToPictures() throws {
        try withHome("XDG_MUSIC_DIR=\"$HOME/Music\"\n") { home, dirs in
            #expect(dirs.picturesDirectory.path == home + "/Pictures")
        }
    }

    @Test func configHomeIsUsedWhenAbsolute() throws {
        // Given XDG_CONFIG_HOME pointing elsewhere
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"$HOME/FromConfigHome\"\n".write(
            to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        try withHome("XDG_PICTURES_DIR=\"$HOME/FromHome\"\n", configHome: config.path) { home, dirs in
            // Then its file wins over ~/.config
            #expect(dirs.picturesDirectory.path == home + "/FromConfigHome")
        }
    }

    @Test(arguments: ["", "relative/config"])
    func relativeOrEmptyConfigHomeIsIgnored(_ configHome: String) throws {
        try withHome("XDG_PICTURES_DIR=\"$HOME/FromHome\"\n", configHome: configHome) { home, dirs in
            #expect(dirs.configDirectory == home + "/.config")
            #expect(dirs.picturesDirectory.path == home + "/FromHome")
        }
    }

    @Test func fileIsReadAgainOnEveryLookup() throws {
        try withHome("XDG_PICTURES_DIR=\"$HOME/Before\"\n") { home, dirs in
            #expect(dirs.picturesDirectory.path == home + "/Before")
            // When the user edits the file
            try "XDG_PICTURES_DIR=\"$HOME/After\"\n".write(
                toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
            // Then the next lookup sees it
            #expect(dirs.picturesDirectory.path == home + "/After")
        }
    }

    @Test func systemLibrarySavesIntoLocalizedPictures() async throws {
        // Given a fake home whose Pictures folder is "Bilder" and does not exist yet
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".write(
            to: home.appendingPathComponent(".config/user-dirs.dirs"), atomically: true, encoding: .utf8)
        let library = PhotoLibrary(backend: FolderBackend.system(environment: ["HOME": home.path]))

        // When a photo is saved into an album
        let saved = try await library.album(titled: "Urlaub").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))

        // Then ~/Bilder was created and holds the album folder
        #expect(saved.albumOutcome == .created)
        #expect(FolderFixture.visible(in: home.appendingPathComponent("Bilder/Urlaub")) == ["a.jpg"])
    }

    @Test func systemLibraryOnAnUnmountedDiskWritesNothing() async throws {
        // Given Pictures configured on a disk that is not mounted
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        let disk = home.appendingPathComponent("media/disk/Photos").path
        try "XDG_PICTURES_DIR=\"\(disk)\"\n".write(
            to: home.appendingPathComponent(".config/user-dirs.dirs"), atomically: true, encoding: .utf8)
        let library = PhotoLibrary(backend: FolderBackend.system(environment: ["HOME": home.path]))

        // When saving
        let code = await Fixture.errorCode {
            try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
        }
        #expect(code == .libraryNotFound)
        // Then nothing was created
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("media").path))
    }
}
