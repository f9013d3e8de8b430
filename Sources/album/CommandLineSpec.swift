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
        case serverURL = "--url"
        case across = "--across"
        case thorough = "--thorough"

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

    static let allOptions = globalOptions + commandOptions

    /// The entry of `name` (every name has one: ``isComplete``).
    static func option(_ name: OptionName) -> Option { allOptions.first { $0.name == name }! }

    /// The option the user wrote as `text` (`--album` or `-a`), if there is one.
    static func option(spelled text: String) -> Option? {
        allOptions.first { $0.long == text || $0.short == text }
    }

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
