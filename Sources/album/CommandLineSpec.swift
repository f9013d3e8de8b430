/// What `album` accepts: its commands and options, described once. `--help`, the man page and the
/// shell completions are all generated from this, `Arguments` parses with it and `AlbumCommand`
/// dispatches on its command names, so they cannot disagree.
enum CommandLineSpec {
    static let version = "0.1.0"

    /// What a shell should offer for an option's value or a command's arguments.
    enum Completion {
        /// `album`: an album title, from `album albums --titles` at completion time.
        case none, file, directory, shell, command, album
    }

    /// An option as the code names it, so that a misspelt name does not compile:
    /// `arguments.has(.dryRun)`, `arguments.value(.album)`. The raw value is its long name; what it
    /// takes and does is its one entry in ``globalOptions`` or ``commandOptions``, in this order.
    enum OptionName: String, CaseIterable, CustomStringConvertible {
        // Every command's (``globalOptions``).
        case library = "--library"
        case system = "--system"
        case catalog = "--catalog"
        case folders = "--folders"
        case json = "--json"
        case caBundle = "--ca-bundle"
        case quiet = "--quiet"
        case verbose = "--verbose"
        case help = "--help"
        case version = "--version"
        // Commands' own (``commandOptions``).
        case album = "--album"
        case albumByDate = "--album-by-date"
        case recursive = "--recursive"
        case null = "--null"
        case include = "--include"
        case exclude = "--exclude"
        case dryRun = "--dry-run"
        case checksum = "--checksum"
        case move = "--move"
        case separateRaw = "--separate-raw"
        case date = "--date"
        case location = "--location"
        case favorite = "--favorite"
        case force = "--force"
        case permanently = "--permanently"
        case delete = "--delete"
        case rename = "--rename"
        case empty = "--empty"
        case days = "--days"
        case endpoint = "--endpoint"
        case bucket = "--bucket"
        case prefix = "--prefix"
        case region = "--region"
        case addressing = "--addressing"
        case retentionDays = "--retention-days"
        case printRoles = "--print-roles"
        case createRoles = "--create-roles"
        case all = "--all"
        case from = "--from"
        case to = "--to"
        case order = "--order"
        case limit = "--limit"
        case after = "--after"
        case interval = "--interval"
        case request = "--request"
        case output = "--output"
        case size = "--size"
        case titles = "--titles"
        case columns = "--columns"
        case camera = "--camera"
        case kind = "--kind"
        case near = "--near"
        case box = "--box"
        case name = "--name"
        case replace = "--replace"
        case removeExtra = "--remove-extra"
        case listen = "--listen"
        case trustProxy = "--trust-proxy"
        case tlsCert = "--tls-cert"
        case tlsKey = "--tls-key"
        case watch = "--watch"
        case settle = "--settle"
        case backup = "--backup"
        case lens = "--lens"
        case rating = "--rating"
        case addRights = "--add"
        case expires = "--expires"
        case pin = "--pin"
        case across = "--across"

        /// `--album`, in messages.
        var description: String { rawValue }
    }

    /// A command as the code names it (`AlbumCommand` switches over every case). The raw value is
    /// what the user types; what it takes and does is its one entry in ``commands``, in this order.
    enum CommandName: String, CaseIterable, CustomStringConvertible {
        case save, `import`, albums, show, create, rename, delete, assets, add, remove
        case deleteAsset = "delete-asset"
        case export, thumbnail, previews
        case contactSheet = "contact-sheet"
        case verify, watch, access
        case duplicates, serve, share, shares, unshare
        case initialize = "init"
        case config, deleted, restore, purge, gc, copy, repair, completions, man, help

        /// `delete-asset`, in messages.
        var description: String { rawValue }
    }

    struct Option {
        let name: OptionName
        /// `-a`.
        var short: String?
        /// `TITLE` when the option takes a value.
        var value: String?
        /// May be given more than once (each adds a value).
        var repeatable = false
        let help: String
        var completion: Completion = .none

        /// `--album`.
        var long: String { name.rawValue }
        var names: [String] { [long] + (short.map { [$0] } ?? []) }
        /// The values the option takes when they are a fixed set (`added|taken`): what completion
        /// offers; empty for a free value (`TITLE`, `N`).
        var choices: [String] {
            guard let value, value.contains("|") else { return [] }
            let words = value.split(separator: "|").map(String.init)
            return words.allSatisfy { $0.allSatisfy(\.isLowercase) } ? words : []
        }
        /// `--album TITLE` or `-a, --album TITLE`.
        var synopsis: String {
            (short.map { "\($0), " } ?? "") + long + (value.map { " \($0)" } ?? "")
        }
    }

    struct Command {
        let name: CommandName
        /// `TITLE`, `FILE...`.
        let arguments: String
        /// The command's own options (the global options apply to every command).
        var options: [OptionName] = []
        let summary: String
        let details: String
        var completion: Completion = .none
        /// Its first argument is an album's title (`show TITLE`, `export TITLE DIR`): completion
        /// offers the library's titles there, and `completion` for the arguments after it.
        var takesAlbumFirst = false
        /// How many positional arguments it takes.
        var arity: ClosedRange<Int>

        var usage: String {
            let flags = options.map { "[\(CommandLineSpec.option($0).synopsis)]" }
            return (["album", name.rawValue] + flags + (arguments.isEmpty ? [] : [arguments])).joined(separator: " ")
        }
    }

    static let globalOptions: [Option] = [
        Option(
            name: .library, short: "-L", value: "PATH",
            help: "The library to use: a NAME.albumlibrary catalog or a folder of album folders.",
            completion: .file),
        Option(name: .system, help: "The system library: the album folders of your Pictures folder."),
        Option(
            name: .catalog,
            help: "PATH is (or is created as) a catalog library, whatever its name."),
        Option(
            name: .folders,
            help: "PATH is (or is created as) a folder library: one sub-folder per album."),
        Option(name: .json, help: "Print JSON for scripts (see Docs/cli-json.md)."),
        Option(
            name: .caBundle, value: "FILE",
            help:
                "A shared library's store: trust the certificate authorities in FILE (PEM), as AWS_CA_BUNDLE does.",
            completion: .file),
        Option(name: .quiet, short: "-q", help: "Print only errors, and the summary when something failed."),
        Option(name: .verbose, short: "-v", help: "Print more: skipped files, albums created, a summary."),
        Option(name: .help, short: "-h", help: "Show help (for a command: album COMMAND --help)."),
        Option(name: .version, help: "Print the version."),
    ]

    static let commandOptions: [Option] = [
        Option(
            name: .album, short: "-a", value: "TITLE",
            help:
                "Save into the album TITLE: found by its remembered id, then by title, created when missing (id:ID: exactly that album); assets, duplicates: only the album's.",
            completion: .album),
        Option(
            name: .albumByDate, value: "FORMAT",
            help:
                "Save each file into the album FORMAT names for its capture date (else its file time): %Y %m %d %B %b %H %M %%, / nests."
        ),
        Option(name: .recursive, short: "-r", help: "FILE may be a folder: save every photo and video under it."),
        Option(
            name: .null, short: "-0",
            help: "Paths read from standard input (\"-\") are separated by NUL bytes (find -print0), not lines."),
        Option(
            name: .include, value: "GLOB", repeatable: true,
            help:
                "In folders, only files whose name matches (with a /, the end of the path, as rsync: 100CANON/*; /DCIM/* from the folder given)."
        ),
        Option(
            name: .exclude, value: "GLOB", repeatable: true,
            help: "In folders, skip files and folders whose name (with a /, the end of the path) matches."),
        Option(
            name: .dryRun, short: "-n",
            help:
                "Report, file by file, what would be done (import, save: saved or already in the library; export: exported or already there); write nothing."
        ),
        Option(
            name: .checksum,
            help:
                "Recognise files already in the library by their content (read and hashed) instead of name, size and time."
        ),
        Option(
            name: .move,
            help:
                "Remove each source file once its copy in the library is durable and read back identical (SHA-256)."
        ),
        Option(
            name: .separateRaw,
            help: "Save the raw of a RAW+JPEG pair as a photo of its own, not kept with its JPEG as one photo."),
        Option(
            name: .date, value: "DATE",
            help:
                "The creation date to record (2024-05-01T10:20:30+02:00, 2024-05-01 10:20 or 2024-05-01; local time without an offset)."
        ),
        Option(
            name: .location, value: "LAT,LON", help: "The location to record, in decimal degrees (64.1466,-21.9426)."),
        Option(name: .favorite, help: "Mark the saved photos and videos as favourites."),
        Option(
            name: .force, short: "-f",
            help: "Delete a folder album even when it holds files or albums (they go to the Trash with it)."),
        Option(
            name: .permanently,
            help:
                "Delete for good: a folder album's folder instead of moving it to the Trash; assets of a catalog instead of keeping them in recently deleted; files export --delete removes."
        ),
        Option(
            name: .delete,
            help:
                "Mirror: remove from DIR the files an earlier export of the album wrote that the album no longer holds (to the Trash)."
        ),
        Option(
            name: .rename, value: "TEMPLATE",
            help:
                "Name each exported photo by TEMPLATE: %Y %m %d %B %b %H %M of its capture time, {name} its original name, {n} its place; extension kept."
        ),
        Option(name: .empty, help: "Delete for good what was deleted more than --days days ago (default 30)."),
        Option(
            name: .days, value: "N", help: "With --empty: how many days deleted assets are kept (0: all of them)."),
        Option(name: .endpoint, value: "URL", help: "The S3-compatible object store, http(s)://HOST[:PORT]."),
        Option(name: .bucket, value: "NAME", help: "The bucket that holds the originals (created when missing)."),
        Option(name: .prefix, value: "PREFIX", help: "A key prefix for the originals in the bucket."),
        Option(
            name: .region, value: "REGION", help: "The signing region (default us-east-1; B2 and R2 name their own)."
        ),
        Option(
            name: .addressing, value: "path|virtual",
            help: "Name the bucket in the path (default; every server) or in the host name (AWS)."),
        Option(
            name: .retentionDays, value: "N",
            help: "How long deleted photos and albums stay in recently deleted (default 30)."),
        Option(
            name: .printRoles,
            help: "Print the SQL that creates the library's reader and writer roles (for psql); change nothing."),
        Option(
            name: .createRoles,
            help: "Create the library's reader and writer roles and grant their rights (a role that may do so)."),
        Option(name: .all, help: "Everything in recently deleted."),
        Option(
            name: .from, value: "LIBRARY|DATE",
            help:
                "copy: the library to copy from (a path or postgres://...); show, assets: list only what was taken from DATE on (YYYY, YYYY-MM or YYYY-MM-DD).",
            completion: .file),
        Option(
            name: .to, value: "LIBRARY|DATE",
            help:
                "copy: the library to copy into (a path or postgres://...; default: --library or ALBUMKIT_LIBRARY); show, assets: list only what was taken up to the end of DATE."
        ),
        Option(
            name: .order, value: "added|taken",
            help:
                "List by when assets were added (default; show: to the album) or when they were taken (then added), oldest first; those of one time by name."
        ),
        Option(
            name: .limit, value: "N", help: "List at most N assets; the next page's --after is printed on stderr."),
        Option(name: .after, value: "CURSOR", help: "Start after this point of a listing (printed by --limit)."),
        Option(
            name: .interval, value: "SECONDS",
            help:
                "How often a shared library (or a folder library inotify cannot watch) is read for changes (default 1)."
        ),
        Option(name: .request, help: "Ask for the access when it was never asked (Photos on Apple platforms)."),
        Option(
            name: .output, short: "-o", value: "FILE", help: "Write to FILE (a new file: an existing one is refused).",
            completion: .file),
        Option(
            name: .size, value: "PIXELS",
            help:
                "The longest side wanted (default 256); a smaller picture keeps its size."
        ),
        Option(name: .titles, help: "Print only the albums' titles, one a line."),
        Option(
            name: .columns, value: "LIST",
            help:
                "The columns to print, comma-separated, in order: \(AssetTable.Column.allCases.map(\.rawValue).joined(separator: ",")) (ids in full)."
        ),
        Option(
            name: .camera, value: "TEXT",
            help: "List only what a camera whose make and model contain TEXT took (case aside: --camera 'eos r6')."),
        Option(
            name: .kind, value: "photo|video|raw|live",
            help:
                "List only photos, only videos, only camera raws (raw formats and DNG, kept alone or with a JPEG), or only Live Photos (Photos)."
        ),
        Option(
            name: .near, value: "LAT,LON[,KM]",
            help: "List only what was taken within KM kilometres (default 1) of a place, in decimal degrees."),
        Option(
            name: .box, value: "SOUTH,WEST,NORTH,EAST",
            help: "List only what was taken between two latitudes and two longitudes, in decimal degrees."),
        Option(
            name: .name, value: "GLOB",
            help: "List only files whose original name matches, case aside (* any text, ? one character: 'IMG_00*')."),
        Option(
            name: .replace,
            help:
                "A new version of a photo in the album (same name and capture time, other bytes) replaces it: the earlier goes to recently deleted."
        ),
        Option(
            name: .removeExtra,
            help:
                "duplicates: delete every copy but the best of each same-file and same-picture group (into recently deleted)."
        ),
        Option(
            name: .listen, value: "ADDRESS:PORT",
            help:
                "Where the server listens (default 127.0.0.1:8080, this machine only; 0.0.0.0:8080 for the local network; PORT 0: any free port)."
        ),
        Option(
            name: .trustProxy,
            help: "Believe X-Forwarded-Host and X-Forwarded-Proto (only behind a reverse proxy that sets them)."),
        Option(
            name: .tlsCert, value: "FILE", help: "Serve HTTPS with this PEM certificate (with --tls-key).",
            completion: .file),
        Option(name: .tlsKey, value: "FILE", help: "The PEM private key of --tls-cert.", completion: .file),
        Option(
            name: .watch, value: "DIR",
            help: "Keep watching DIR and import each photo and video once it is complete (until Ctrl-C).",
            completion: .directory),
        Option(
            name: .settle, value: "SECONDS",
            help:
                "With --watch: how long a file's size and time must stay unchanged, closed by its writer, before it is imported (default 2)."
        ),
        Option(
            name: .backup, value: "DIR",
            help:
                "Also copy each file into DIR, in its folder below the one imported, read back and checked (a name taken by another file gets a suffix).",
            completion: .directory),
        Option(
            name: .lens, value: "TEXT",
            help: "List only what was taken with a lens whose name contains TEXT (case aside: --lens '24-105')."),
        Option(
            name: .rating, value: "N",
            help: "List only photos rated N stars or more (XMP xmp:Rating, in the file or its .xmp sidecar)."),
        Option(
            name: .addRights, help: "share: the guest may also add photos and videos to the album (else only view it)."),
        Option(
            name: .expires, value: "DURATION|DATE",
            help:
                "share: the link stops working after DURATION (90s, 30m, 12h, 7d, 4w) or at DATE (through 2026-12-24, or at 2026-12-24T18:00)."
        ),
        Option(
            name: .pin,
            help:
                "share: guests must also give a PIN, read from standard input (4 to 64 characters; 5 wrong ones lock the link)."
        ),
        Option(name: .across, value: "N", help: "contact-sheet: pictures to a row (default 6)."),
    ]

    static let allOptions = globalOptions + commandOptions

    /// The entry of `name` (every name has one: ``isComplete``).
    static func option(_ name: OptionName) -> Option { allOptions.first { $0.name == name }! }

    /// The option the user wrote as `text` (`--album` or `-a`), if there is one.
    static func option(spelled text: String) -> Option? {
        allOptions.first { $0.long == text || $0.short == text }
    }

    static let commands: [Command] = [
        Command(
            name: .save, arguments: "FILE...",
            options: [
                .album, .albumByDate, .recursive, .null, .include, .exclude, .dryRun, .checksum, .move,
                .separateRaw, .date, .location, .favorite, .replace,
            ],
            summary: "Save photos and videos (into an album with --album).",
            details: """
                Saves each FILE (photo or video, recognised from its content) into the library, and into the
                album TITLE when given; the album is found, or created when missing, in the same transaction
                as the files. Each result is printed as soon as that file is safely saved. A file that is not
                media, is damaged or unreadable fails alone; the others are saved. FILE "-" reads paths from
                standard input, one per line (NUL-separated with -0); names need not be valid UTF-8. A FIFO or
                device is refused (fileUnreadable) without blocking. Ctrl-C finishes the files being saved,
                prints what was saved and exits with status 130. A file already in the library is not
                stored twice: it is reported "already in the library" ("existing": true) and added to the
                album when it is not in it yet. It is recognised without being copied when the library
                holds a file of the same name, size and modification time (as rsync's quick check does;
                --checksum compares content instead), else by its bytes once copied: in a catalog anywhere
                in the library (the asset keeps the first name saved), in a folder library in the album's
                folder. The summary counts saved, already in the library, skipped and failed files apart.
                --date, --location and --favorite describe each file saved: a catalog records them with the
                asset, a folder library gives the file that modification time, Photos sets them on the asset;
                the file's bytes are never changed.
                """,
            completion: .file, arity: 1...Int.max),
        Command(
            name: .import, arguments: "FOLDER...",
            options: [
                .album, .albumByDate, .include, .exclude, .dryRun, .checksum, .move, .separateRaw, .null, .replace,
                .watch, .settle, .backup,
            ],
            summary: "Save every photo and video in folder trees (save -r), or as they arrive in a watched folder.",
            details: """
                Saves every photo and video under each FOLDER (and in sub-folders), like save -r. Hidden files
                and folders are left out. Files that are not photos or videos are skipped and counted, not
                reported as failures; damaged or unreadable media still fail, and so does a sub-folder that
                cannot be read. Links to files are saved as their files; links to folders are not followed,
                and they and broken links are skipped and counted (-v lists every skipped file).

                Files that belong to a photo are saved with it, as one asset: its sidecars (IMG_1.xmp or
                IMG_1.CR2.xmp from Lightroom, darktable or digiKam; IMG_1.AAE from an iPhone), and the raw
                of a RAW+JPEG pair (IMG_1.CR2 beside IMG_1.JPG, taken at the same time): the JPEG is the
                photo shown, the raw is kept with it (--separate-raw saves it as a photo of its own; when
                the JPEG is damaged, its error says so and the raw is saved alone). A catalog keeps them with the asset; a folder library puts them beside the photo, named
                after it. Each line names them ("with IMG_1.CR2, IMG_1.xmp"); `show --json` lists them,
                and export, delete and restore take them along. A sidecar whose photo is not there is
                reported and counted, never dropped in silence. Importing again brings in a sidecar
                edited since or new ("updated: IMG_1.xmp"); one no longer on the card stays.

                Importing a card again stores only what is new: a file the library already holds, with
                the same name, size and modification time, is reported "already in the library" without
                being read (and added to the album when it is not in it yet). --checksum reads and hashes
                each file instead and compares the hash with the one a catalog recorded (a folder library,
                which records none, with its files of that size), to find a file changed in place with its
                time kept. --dry-run prints, line for line, what the import would print, and the same
                counts, writing nothing.

                --album-by-date FORMAT saves each file into the album FORMAT names for its capture date,
                as written in its metadata (the camera's wall-clock time, not converted), else for its
                modification time: %Y year, %m month (05), %d day, %B month name (May), %b short month
                name (May), %H hour, %M minute, %% a percent sign; / nests albums (in a folder library
                "%Y/%m" is the folder 05 inside 2024). Each line names the album; it replaces --album.

                --move removes each file once it is saved and the library's copy, read back, has the same
                SHA-256 (a file already in the library too): lines say "moved", the summary counts them.
                Files that failed or were skipped stay. A source folder that cannot be written (a
                read-only card) is refused, naming it, before anything is saved.

                --backup DIR also copies each file (and its sidecars and raw) into DIR, at its path below
                the FOLDER imported (DCIM/100CANON/IMG_0001.JPG), as Lightroom's "Make a Second Copy To":
                written unseen, flushed, read back and compared (SHA-256) before it is named. A name taken
                by another file keeps that file (the copy becomes IMG_0001-1.JPG); a file of the same bytes
                there counts as made. DIR is never created. A copy that cannot be made (a full, read-only or
                missing disk) is named with its cause and counted; the import itself goes on, and with
                --move that file stays where it is. The summary says how many copies were made.

                --watch DIR (no FOLDER then) keeps watching DIR and its sub-folders and imports each photo
                and video once it is complete: its size and modification time unchanged for --settle
                seconds (default 2) and, on Linux, no process holding it open for writing, so a file still
                being copied is never imported half-written. The folder is read again as soon as the kernel
                tells of a change (inotify) and every 10 seconds anyway. Each file is imported as import
                does (same lines, --album, --album-by-date, --move, --include); a sidecar waits for its
                photo, and one arriving after its photo was imported is added to it ("updated"). Files
                already in the library are recognised and not listed, so a watch started again reads the
                folder quietly. Ctrl-C stops after the files being saved, with a summary.
                """,
            completion: .directory, arity: 0...Int.max),
        Command(
            name: .albums, arguments: "", options: [.titles],
            summary: "List the albums: id, asset count, size, dates taken, title.",
            details: """
                Lists every album, oldest first: id, number of photos and videos, the size of their
                originals, the days the first and the last were taken (the camera's clock), title. With
                --titles, only the titles, one a line (what shell completion offers).
                """,
            arity: 0...0),
        Command(
            name: .show, arguments: "TITLE",
            options: [.order, .columns, .from, .to, .camera, .lens, .rating, .kind, .near, .box, .name],
            summary: "List the photos and videos of an album.",
            details: """
                Lists the assets of the album TITLE in the order they were added: name, kind, size, when it
                was taken (or added), format and dimensions, camera, GPS position and id (its first
                characters, enough to name it; in a shared library also who saved it). On a terminal,
                columns that do not fit are left out, saying so. -v adds where the file is and prints
                every id in full; --columns chooses the columns; --json prints every field. Times are
                the camera's clock, their zone said once in the header when they share one.
                --order taken lists by when they were taken. --from and --to (YYYY, YYYY-MM or
                YYYY-MM-DD: the whole year, month or day), --camera, --lens, --rating (N stars or more,
                from the photo's XMP or its .xmp sidecar), --kind, --near or --box and --name list only
                what matches every one of them.
                """,
            takesAlbumFirst: true, arity: 1...1),
        Command(
            name: .create, arguments: "TITLE", summary: "Create an album (nothing happens when it exists).",
            details: "Creates the album TITLE unless an album with that title already exists.", arity: 1...1),
        Command(
            name: .rename, arguments: "TITLE NEW", summary: "Rename an album (it keeps its id).",
            details: "Renames the album TITLE to NEW. Its id stays the same, so saves that remembered it find it.",
            takesAlbumFirst: true, arity: 2...2),
        Command(
            name: .delete, arguments: "TITLE", options: [.force, .permanently], summary: "Delete an album.",
            details: """
                Deletes the album TITLE. In a catalog library its photos and videos stay in the library. In a
                folder library the album is a folder: it moves to the Trash (restore it from the file manager)
                with its files and the albums inside it, so a non-empty album is refused unless --force is
                given; --force lists the albums that went with it. --permanently deletes the folder instead.
                In a folder library a title is a path: "Trips/2024" is the folder 2024 inside Trips; write a
                slash that is part of a folder's name as \\/ ("AC\\/DC").
                """,
            takesAlbumFirst: true, arity: 1...1),
        Command(
            name: .assets, arguments: "",
            options: [
                .order, .limit, .after, .columns, .album, .from, .to, .camera, .lens, .rating, .kind, .near, .box,
                .name,
            ],
            summary: "List every photo and video of the library, in albums or not.",
            details: """
                Lists every asset of the library, whether or not it is in an album, by when it was added
                (--order added, the default) or when it was taken (--order taken; assets without a capture
                date come by when they were added), oldest first, those of one time by name, with the
                columns of show. --limit N prints one page and, on stderr, the --after CURSOR of the next
                one. The filters of show (--from, --to, --camera, --lens, --rating, --kind, --near, --box, --name) and
                --album TITLE list only what matches every one of them.
                """,
            arity: 0...0),
        Command(
            name: .add, arguments: "TITLE ASSET_ID...", summary: "Add existing photos and videos to an album.",
            details: """
                Adds the assets ASSET_ID (ids as show and assets list them, the start of one id, or the file
                name of one asset) to the album TITLE, after its current ones; an asset already there stays where it is. They stay in their other albums. In a
                folder library the album folder gets its own copy of each file (a hard link when possible).
                Nothing is added when an argument names no asset or several.
                """,
            takesAlbumFirst: true, arity: 2...Int.max),
        Command(
            name: .remove, arguments: "TITLE ASSET_ID...", summary: "Remove photos and videos from an album.",
            details: """
                Removes the assets ASSET_ID (ids, the start of one, or file names in the album) from the
                album TITLE; they stay in the library and in their other
                albums (in a folder library the file moves to the library's top folder, unless another album
                holds the same file). Nothing is removed when one of them is not in the album.
                """,
            takesAlbumFirst: true, arity: 2...Int.max),
        Command(
            name: .deleteAsset, arguments: "ASSET_ID...", options: [.permanently],
            summary: "Delete photos and videos from the library.",
            details: """
                Deletes the assets ASSET_ID (ids, the start of one, or file names) from the library and from
                every album. A catalog library keeps them
                in its recently deleted, files and all, and a shared library for its retention (30 days unless
                `album config` changes it): `album deleted` lists them, `album restore` brings them back into their
                albums. --permanently removes them and their files for good (catalog and folder libraries). A
                folder library moves the files to the Trash. Nothing is deleted when an id is unknown.
                """,
            arity: 1...Int.max),
        Command(
            name: .export, arguments: "TITLE DIR", options: [.dryRun, .delete, .permanently, .rename],
            summary: "Copy an album's originals into a folder.",
            details: """
                Copies the original of every asset of the album TITLE into the folder DIR (created when
                missing), under its original name; a name already taken becomes "name 2.jpg", "name 3.jpg", and so on.
                Each file's modification time is its capture date when known. Nothing in DIR is overwritten.
                Exporting again is a sync: an asset whose identical copy (same size and SHA-256) is already in
                DIR under its name is not copied again and is counted "already there".
                An asset that cannot be copied is reported and the others are still exported (exit status 1).
                Each photo's sidecars and raw (see `album import`) are written beside it, named after it.
                --dry-run prints, asset by asset, the name each would be written under or that it is already
                there, and writes nothing (not even DIR). On a terminal a progress line shows files and bytes.
                DIR may not lie inside the library itself (an album folder of a folder library, a catalog's folder).
                Each export records in DIR/.albumkit-export the files it wrote, with size and SHA-256. --delete
                makes DIR a mirror: a recorded file the album no longer holds is moved to the Trash (--permanently:
                removed), but only while it is still the same regular file; a file edited since, a link, a folder
                and every file the export did not write are kept. Each removal is said on its own line.
                --rename TEMPLATE names each photo by its capture time (the date added when it has none), in
                strftime fields %Y %m %d %B %b %H %M %%, with {name} its original name without extension and {n}
                its place in the album (zero-padded); the extension is kept and sidecars and raw follow it.
                """,
            completion: .directory, takesAlbumFirst: true, arity: 2...2),
        Command(
            name: .thumbnail, arguments: "ASSET_ID", options: [.output, .size],
            summary: "Write an asset's thumbnail (a small JPEG) into a file.",
            details: """
                Writes a small picture of the asset ASSET_ID (its id, the start of one, or its file name) into
                --output FILE, a new file (an existing one is never overwritten), fitted in --size PIXELS
                (default 256; never enlarged), and prints its size in pixels. Photos decodes the asset. A
                catalog, folder or shared library makes it with libvips (Debian's libvips42): from the JPEG
                preview stored in the file when it is big enough, else from the photo itself, turned as the
                photo's orientation says and in sRGB; a catalog keeps it inside the library and a folder
                library in the desktop's thumbnail cache (a PNG there). A video gives its poster frame, a frame
                near a tenth of its length decoded by FFmpeg's libraries (Debian's libavformat59, libavcodec59,
                libswscale6, libavutil57). A missing library is reported, naming its package, and nothing is
                written.
                """,
            arity: 1...1),
        Command(
            name: .previews, arguments: "", options: [.album],
            summary: "Make the thumbnails and previews the library does not keep yet.",
            details: """
                Makes every thumbnail (256 and 512 pixels) and preview (2048 pixels) that is missing or damaged,
                for the whole library or --album TITLE, a few photos at once, with progress on a terminal, then
                prints what it made, what was kept already and each photo that failed with its file and cause
                (exit status 1 when one did). A catalog keeps them under derivatives/ inside the library; a
                folder library keeps the thumbnails in the desktop's thumbnail cache ($XDG_CACHE_HOME/thumbnails),
                where file managers find them. Needs libvips (Debian's libvips42); a video's are its poster
                frame (FFmpeg's libraries, Debian's libavformat59 and its companions).
                """,
            arity: 0...0),
        Command(
            name: .contactSheet, arguments: "TITLE", options: [.output, .size, .across],
            summary: "Write an album's thumbnails, with names and dates, as one JPEG or PDF page.",
            details: """
                Writes the photos and videos of the album TITLE as one contact sheet into --output FILE, a new
                file: a JPEG when FILE ends in .jpg or .jpeg, a one-page PDF when it ends in .pdf. Each picture
                is fitted in a square of --size PIXELS (default 256) with its file's name and the date it was
                taken below it, --across N to a row (default 6), in the album's order. Thumbnails are made as
                `album thumbnail` makes them (a video's is its poster frame) and reused where the library keeps
                them. A picture that cannot be made is left off and named on stderr (exit status 1). Needs
                libvips (Debian's libvips42).
                """,
            arity: 1...1),
        Command(
            name: .verify, arguments: "", summary: "Check every file against the library's records.",
            details: """
                Checks that every asset's file exists with its recorded size and SHA-256 and that no stray or
                half-written file is present. Exit status 0 when healthy, 1 otherwise.
                """,
            arity: 0...0),
        Command(
            name: .watch, arguments: "", options: [.interval],
            summary: "Print the library's changes as they happen.",
            details: """
                Prints a line for each asset and album another program, another process or this one adds,
                removes or changes, from now on, by file name and album title ("added photo IMG_0001.JPG",
                "added album "Trip"", "removed album "Trip""; -v adds each id), until Ctrl-C; an asset
                changed or removed that was not added while watching is named by its id. --json prints one
                object per change with the identifiers by kind. Photos reports its changes
                itself; a catalog follows its journal (a change shows within a fraction of a second); a folder
                library is told of changes by the kernel (inotify), and read every --interval seconds only on
                a network or FUSE file system; a shared library is read every --interval seconds and compared,
                so a change shows within one interval.
                """,
            arity: 0...0),
        Command(
            name: .access, arguments: "", options: [.request],
            summary: "Show (and ask for) the access the library gives.",
            details: """
                Prints the access at each level, add-only and read-write: authorized, limited, denied, restricted
                or not determined. AlbumKit's own libraries (catalog, folders, shared) are always authorized;
                Photos answers what the user chose, and --request shows the system prompt when the user was
                never asked.
                """,
            arity: 0...0),
        Command(
            name: .duplicates, arguments: "", options: [.album, .removeExtra, .dryRun],
            summary: "List duplicate photos: the same file, the same picture, similar pictures.",
            details: """
                Compares every photo of the library (--album TITLE: of that album) and lists three classes kept
                apart: the same file (the same bytes twice), the same picture (one shot resized, recompressed,
                stripped of its EXIF or converted between JPEG and HEIC) and similar pictures (frames of a burst,
                shots a moment apart: listed only). Frames of a burst are never the same picture. Each group
                names its files with their pixel size, file size, dates and albums, the one to keep first (the
                most pixels, then the one with its camera's metadata, then the most bytes, then the oldest).
                Nothing is deleted unless --remove-extra is given: then every other copy of same-file and
                same-picture groups goes to recently deleted (a folder library: the Trash); --dry-run only
                says which. The first run
                decodes each photo's thumbnail (libvips, Debian's libvips42) and keeps its perceptual hashes
                in a cache (Docs/duplicates.md); later runs reuse them.
                """,
            arity: 0...0),
        Command(
            name: .serve, arguments: "", options: [.listen, .trustProxy, .tlsCert, .tlsKey],
            summary: "Show the library's albums in a browser, and save into them from a phone.",
            details: """
                Serves the library's albums as web pages (built into album: nothing is fetched from elsewhere)
                until Ctrl-C, and prints the link to open (on a terminal also as a QR code, for a phone's
                camera): it holds the owner's access token, which the first visit turns into a cookie. Anyone with the link sees every album and can save into them, so
                share it as you would a password. Photos and videos added in the page (any number, picked,
                dropped, or taken with a phone's camera) are uploaded in pieces that resume after a dropped
                connection, and each is saved into the album as `album save` would. Listens on this machine
                only unless --listen says otherwise. Needs GNU libmicrohttpd (Debian: libmicrohttpd12).
                Docs/serve.md has the security model and how to run it behind a reverse proxy.
                """,
            arity: 0...0),
        Command(
            name: .share, arguments: "TITLE", options: [.addRights, .expires, .pin],
            summary: "Make a link that shows one album to a guest of album serve.",
            details: """
                Makes a share link for the album TITLE (or id:ID) and prints its address, /s/ and a secret
                token, to open on the address album serve prints (http://HOST:PORT/s/TOKEN). A guest who opens
                it sees that album only: its photos and videos, their previews and originals, never the other
                albums nor anything else of the library; with --add the guest may also add photos and videos
                to it. --expires ends the link after a while or at a date; --pin asks guests for a PIN too
                (read from standard input). The link is kept in the library (only a hash of its token and of
                its PIN), so every server of the library honours it, and the token is shown only now.
                album shares lists the links, album unshare revokes one at once. Docs/serve.md has more.
                """,
            takesAlbumFirst: true, arity: 1...1),
        Command(
            name: .shares, arguments: "", summary: "List the library's share links.",
            details: """
                Lists every share link of the library: its id, the album, what a guest may do (view, or view
                and add), when it was made, when it expires, whether it asks for a PIN and whether it is
                expired or locked by wrong PINs. --json prints them as objects. Tokens are never shown (the
                library keeps only their hash).
                """,
            arity: 0...0),
        Command(
            name: .unshare, arguments: "ID|TITLE", summary: "Revoke a share link, or every link of an album.",
            details: """
                Revokes the share link ID (as album shares lists it), or every link of the album TITLE (or
                id:ID): it stops opening at once, on every server of the library, for guests already looking
                at the album too.
                """,
            arity: 1...1),
        Command(
            name: .initialize, arguments: "",
            options: [.endpoint, .bucket, .prefix, .region, .addressing, .printRoles, .createRoles],
            summary: "Set up a shared (postgres://) library and record its object store.",
            details: """
                Sets up the shared library given with --library postgres://USER@HOST[:PORT]/DATABASE: creates its
                tables and records the object store (endpoint, bucket, key prefix, region, addressing) in the
                database; the bucket is created when missing. Credentials are never recorded: the database
                password comes from PGPASSWORD, ~/.pgpass or a service file, the store's keys from
                AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or ~/.aws/credentials (AWS_PROFILE). Running it
                again with the same settings changes nothing; with other settings it is an error (album config
                changes the endpoint, region and addressing).
                Members: --print-roles prints the SQL that creates two roles, DATABASE_reader (may list, show,
                export and verify) and DATABASE_writer (may also save, copy in, change albums, delete into and
                restore from recently deleted), and grants them their rights on the library's tables;
                --create-roles runs it (as the tables' owner, with CREATEROLE). Purge, gc and config stay with
                the owner. A member is a login role in one of them: CREATE ROLE anna LOGIN IN ROLE
                DATABASE_reader. A reader's save fails with libraryUnwritable before anything is uploaded.
                With either flag, --endpoint and --bucket may be left out for a library already set up. Each
                photo records who saved it (machine, user, database role), as album show lists.
                """,
            arity: 0...0),
        Command(
            name: .config, arguments: "", options: [.endpoint, .region, .addressing, .retentionDays],
            summary: "Show or change a shared library's store settings and retention.",
            details: """
                Prints the shared library's object store (endpoint, bucket, prefix, region, addressing) and how
                many days deleted photos and albums stay restorable. --endpoint, --region and --addressing
                change how every machine reaches the store (the bucket and prefix stay): the new settings are
                tried first, and nothing changes unless the store answers and holds the library's originals.
                --retention-days N changes the retention.
                """,
            arity: 0...0),
        Command(
            name: .deleted, arguments: "", options: [.empty, .days],
            summary: "List recently deleted photos (and a shared library's albums).",
            details: """
                Lists what was deleted and can still be restored, most recent first. A shared library: kind,
                name, when it was deleted, when album gc removes it for good, id, and the albums a photo goes
                back to. A catalog library: name, when it was deleted, when it expires (30 days later: from
                then on album deleted --empty removes it; nothing is removed by itself), id, and the albums
                restore puts it back into; with --empty, deletes for good (files and all) those deleted more
                than --days days ago (default 30; 0: all).
                """,
            arity: 0...0),
        Command(
            name: .restore, arguments: "ID...", summary: "Bring photos and albums back from recently deleted.",
            details: """
                Restores the photos and videos (into the albums they were in) and, in a shared library, the
                albums (with their photos) whose ids album deleted lists. Nothing is restored when an id is not
                in recently deleted.
                Saving a deleted photo again also brings it back.
                """,
            arity: 1...Int.max),
        Command(
            name: .purge, arguments: "[ID...]", options: [.all],
            summary: "Remove photos and albums from recently deleted for good.",
            details: """
                Removes the given ids (or, with --all, everything) from the library's recently deleted for
                good, with their originals (in a shared library, those no other photo shares). This cannot be undone. album gc does the
                same for what has been there longer than the retention.
                """,
            arity: 0...Int.max),
        Command(
            name: .gc, arguments: "",
            summary: "Remove what a shared library no longer needs (expired deletions, abandoned uploads).",
            details: """
                Removes photos and albums that have been in recently deleted longer than the retention (album
                config), then the originals no photo needs any more: those of removed photos, and those
                uploaded by a saver that died between its upload and its commit. A save in progress, or a save
                of the same bytes at the same moment, is never affected. Run it now and then (cron).
                """,
            arity: 0...0),
        Command(
            name: .copy, arguments: "", options: [.from, .to],
            summary: "Copy one library into another, in any direction (re-runnable).",
            details: """
                Copies every photo and video of the library --from (a catalog or shared library) into the
                library --to (a catalog or shared library, else --library; a new .albumlibrary is created),
                with their original names, capture dates, locations and favourites, and every album with its
                photos in order (an album is found by its title, or created). A shared library copied into a catalog on
                a disk is its backup, and the way out. Each original's SHA-256 is checked as it is copied.
                Photos the target already holds (the same bytes) are not copied again, so running it again,
                after an interruption or a crash, copies only what is missing and never makes duplicates; when
                everything is there it says "nothing to copy". A catalog copied into a shared library also
                keeps its ids, dates added and album order. A photo that cannot be copied (its original is
                missing or damaged in the source) is named and the rest go on; the exit status is then 1.
                """,
            arity: 0...0),
        Command(
            name: .repair, arguments: "",
            summary: "Rebuild a damaged or lost catalog from the journal, snapshot and originals.",
            details: """
                Rebuilds the catalog of a catalog library after it was deleted, reset, replaced by an older
                copy, lost its -wal file or was damaged: from what survived of it, its last snapshot, the save
                journal (every save and album change) and the files in originals/. Nothing in originals/ is
                deleted; the damaged catalog is kept in damaged/. On a healthy library it only adds files no
                asset names. Prints what was restored, from where, and what could not be; exit status 1 when
                something could not be restored.
                """,
            arity: 0...0),
        Command(
            name: .completions, arguments: "SHELL", summary: "Print the shell completion script (bash, zsh, fish).",
            details: """
                Prints the completion script for SHELL (bash, zsh or fish). For example:
                  album completions bash > ~/.local/share/bash-completion/completions/album
                  album completions zsh > ~/.zfunc/_album     (with fpath+=~/.zfunc before compinit)
                  album completions fish > ~/.config/fish/completions/album.fish
                """,
            completion: .shell, arity: 1...1),
        Command(
            name: .man, arguments: "", summary: "Print the manual page (roff).",
            details: "Prints the manual page, for example: album man > ~/.local/share/man/man1/album.1",
            arity: 0...0),
        Command(
            name: .help, arguments: "[COMMAND]", summary: "Show help for a command.",
            details: "Shows the help of COMMAND, or the overview.", completion: .command, arity: 0...1),
    ]

    /// The command the user wrote as `word`, if there is one.
    static func command(_ word: String) -> Command? { commands.first { $0.name.rawValue == word } }

    /// Whether every option and command name has exactly one entry, in the order of its cases:
    /// checked at each start of a debug build, so that any CLI test finds a missing entry.
    static var isComplete: Bool {
        allOptions.map(\.name) == OptionName.allCases && commands.map(\.name) == CommandName.allCases
    }

    /// Two options that cannot be given together.
    struct Conflict {
        let first: OptionName
        let second: OptionName
    }

    static let conflicts = [
        Conflict(first: .system, second: .library), Conflict(first: .system, second: .catalog),
        Conflict(first: .system, second: .folders), Conflict(first: .catalog, second: .folders),
        Conflict(first: .quiet, second: .verbose),
    ]

    static let albumText = """
        TITLE (and --album TITLE) is an album's title, or id:ID for the album with that id (as albums
        lists it), which keeps working after a rename and tells apart albums with the same title; saving
        with --album id:ID never creates an album. A title that itself begins with id: or title: is
        written after title: (title:id:2024).
        """

    static let libraryText = """
        --library PATH, else $ALBUMKIT_LIBRARY, else $XDG_DATA_HOME/albumkit/Photos.albumlibrary
        (~/.local/share/... when XDG_DATA_HOME is unset), created on the first save.
        A PATH ending in .albumlibrary or holding a catalog.sqlite is a catalog library; an existing
        plain folder is a folder library (one sub-folder per album). A PATH that does not exist yet
        becomes a new library only when it ends in .albumlibrary or --catalog or --folders says which
        kind, so a mistyped path is an error, not a new empty library. --system is the album folders
        of your XDG Pictures folder.
        On Linux, postgres://USER@HOST[:PORT]/DATABASE is a shared library (catalog in PostgreSQL,
        originals in an S3-compatible store; set it up with album init). Its password comes from
        PGPASSWORD or ~/.pgpass, the store's keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or
        ~/.aws/credentials (AWS_PROFILE); a private certificate authority from --ca-bundle,
        AWS_CA_BUNDLE, CURL_CA_BUNDLE or SSL_CERT_FILE.
        """

    static let exitText = """
        0 everything asked succeeded; 1 something failed (each error names the file and the cause);
        2 usage error; 130 interrupted (what was saved before was printed).
        """
}
