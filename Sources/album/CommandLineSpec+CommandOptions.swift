/// Each command's own options, in the order of ``CommandLineSpec/OptionName``'s cases after the
/// global ones (``CommandLineSpec/isComplete``).
extension CommandLineSpec {
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
        Option(
            name: .serverURL, value: "URL",
            help:
                "share: the address guests reach album serve at (http://192.168.1.20:8080, or the reverse proxy's https://photos.example.org): the whole link is printed."
        ),
        Option(name: .across, value: "N", help: "contact-sheet: pictures to a row (default 6)."),
        Option(
            name: .thorough,
            help:
                "verify: also rebuild a catalog's index from its journal in memory and compare every fact, with SQLite's full integrity check (minutes for a million photos)."
        ),
    ]
}
