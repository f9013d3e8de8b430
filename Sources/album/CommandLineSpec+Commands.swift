/// Every command, in the order of ``CommandLineSpec/CommandName``'s cases
/// (``CommandLineSpec/isComplete``).
extension CommandLineSpec {
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
            name: .verify, arguments: "", options: [.thorough],
            summary: "Check every file against the library's records.",
            details: """
                Checks that every asset's file exists with its recorded size and SHA-256 and that no stray or
                half-written file is present. A catalog library also has every page of its index checked
                against its checksum and every record of its journal against its own, and the journal proved
                to be the one the index was built from; the files are read on every core meanwhile.
                --thorough also rebuilds the index from the journal in memory and compares them fact by fact
                (albums, their photos and order), with SQLite's full integrity check: minutes for a million
                photos. Exit status 0 when healthy, 1 otherwise.
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
            name: .share, arguments: "TITLE", options: [.addRights, .expires, .pin, .serverURL],
            summary: "Make a link that shows one album to a guest of album serve.",
            details: """
                Makes a share link for the album TITLE (or id:ID) and prints its address, /s/ and a secret
                token, to open on the address album serve prints (http://HOST:PORT/s/TOKEN); with --url (the
                address guests reach the server at) it prints the whole link, ready to send. A guest who opens
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
}
