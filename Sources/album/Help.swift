/// `album --help` and `album COMMAND --help`.
enum Help {
    static let overview = """
        album — save photos and videos into named albums

        USAGE: album [--library PATH | --system] COMMAND [OPTIONS] [ARGS...]

        COMMANDS:
          save [--album TITLE] [--json] FILE...   Save media (into an album when --album is given).
                                                  FILE "-" reads paths from standard input, one per line.
          albums [--json]                         List albums: id, asset count, title.
          show TITLE [--json]                     List the assets of an album.
          create TITLE                            Create an album (no-op when it exists).
          rename TITLE NEW                        Rename an album (it keeps its id).
          delete TITLE [--force]                  Delete an album. In a catalog library its assets stay in
                                                  the library; in a folder library the folder and its files
                                                  go, so a non-empty album needs --force.
          verify [--json]                         Check every file against the library's records.
          init --endpoint URL --bucket B [--prefix P]
                                                  Set up a shared (postgres://) library.
          gc                                      Remove originals a shared library never committed.
          copy --from L.albumlibrary --to URL     Copy a catalog library into a shared one (re-runnable).

        LIBRARY (first match wins):
          --library PATH      a NAME.albumlibrary catalog (created on first save), or a plain folder of
                              album folders (a folder library)
          --system            the system library: album folders in your XDG Pictures folder
          --library postgres://USER@HOST[:PORT]/DATABASE
                              a shared library (PostgreSQL + an S3-compatible store); password from
                              PGPASSWORD or ~/.pgpass, store keys from AWS_ACCESS_KEY_ID/_SECRET_ACCESS_KEY
          $ALBUMKIT_LIBRARY   as --library
          default             $XDG_DATA_HOME/albumkit/Photos.albumlibrary (~/.local/share/... when unset)

        Exit status is 0 only when everything asked succeeded. Run `album COMMAND --help` for details.
        """

    static func text(for command: String) -> String? {
        switch command {
        case "save":
            return """
                USAGE: album save [--album TITLE] [--json] [--library PATH] FILE...

                Saves each FILE (photo or video, recognised from its content) into the library, and into
                the album TITLE when given: the album is found by its remembered id, then by title, and
                created when missing — in the same transaction as the assets. A file that is not media,
                is damaged or unreadable fails alone; the others are saved. "-" reads paths from stdin.

                --json prints one JSON object per input line:
                  {"file", "asset", "album", "albumOutcome": "found|created|recreated"} or
                  {"file", "error": {"code", "message"}}
                """
        case "albums":
            return
                "USAGE: album albums [--json]\n\nLists every album, oldest first: id, asset count, title.\n--json prints [{\"id\", \"title\", \"count\"}]."
        case "show":
            return
                "USAGE: album show TITLE [--json]\n\nLists the assets of the album TITLE in the order they were added:\nid, original file name, kind, byte size, date added, and the media's metadata."
        case "create":
            return
                "USAGE: album create TITLE\n\nCreates the album TITLE unless an album with that title already exists."
        case "rename":
            return "USAGE: album rename TITLE NEW\n\nRenames the album TITLE to NEW. Its id stays the same."
        case "delete":
            return
                "USAGE: album delete TITLE [--force]\n\nDeletes the album TITLE. In a catalog library the assets stay in the library.\nIn a folder library the album is a folder: deleting it deletes its files, so a\nnon-empty album is refused unless --force is given."
        case "verify":
            return
                "USAGE: album verify [--json]\n\nChecks that every asset's file exists with its recorded size and SHA-256 and that\nno stray or half-written file is present. Exit status 0 when healthy, 1 otherwise."
        case "init":
            return """
                USAGE: album init --endpoint URL --bucket BUCKET [--prefix PREFIX] [--region REGION]
                                  [--library postgres://...]

                Sets up a shared library: creates its tables in the PostgreSQL database and records the
                object store (endpoint, bucket, key prefix) there; the bucket is created when missing.
                Credentials are never recorded: the database password comes from PGPASSWORD or ~/.pgpass,
                the store's keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. Running it again with
                the same store changes nothing.
                """
        case "gc":
            return
                "USAGE: album gc [--library postgres://...]\n\nRemoves originals that were uploaded to a shared library but never committed\n(a saver that died between upload and commit). Never touches a save in progress."
        case "copy":
            return
                "USAGE: album copy --from L.albumlibrary --to postgres://...\n\nCopies every asset, album, membership, date and original name of a catalog library\ninto a shared library. Running it again copies only what is missing."
        default:
            return nil
        }
    }
}
