/// The pages `album serve` sends, kept in the binary: plain HTML, CSS and JavaScript with no build
/// step and nothing fetched from elsewhere. The index page gets the CSRF token and whether albums
/// nest put in when it is sent.
///
/// ```swift
/// let html = Pages.index.replacingOccurrences(of: "{{csrf}}", with: token.csrf)
/// ```
enum Pages {
    static let index = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="csrf" content="{{csrf}}">
        <meta name="nested" content="{{nested}}">
        <meta name="guest" content="{{guest}}">
        <title>Albums</title>
        <link rel="stylesheet" href="/app.css">
        </head>
        <body>
        <header><a href="#/" id="home">Albums</a> <span id="where"></span></header>
        <main id="main" tabindex="-1"></main>
        <script src="/app.js"></script>
        </body>
        </html>
        """

    static let signIn = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Albums</title></head>
        <body><h1>Albums</h1><p>Open the link <code>album serve</code> printed: it holds the access token.</p></body>
        </html>
        """

    /// What a share link's address says when it opens nothing.
    static let linkUnknown =
        "This share link opens nothing here: it was revoked, mistyped, or made for another library. Ask whoever sent it for a new one."
    static let linkExpired = "This share link has expired. Ask whoever sent it for a new one."
    static let linkLocked =
        "This share link is locked: its PIN was given wrong too many times. Ask whoever sent it for a new one."
    static let pinNeeded = "This share link needs its PIN: open the link again and give it."

    /// A page of one message (its text already safe in HTML).
    static func message(_ text: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Album</title><link rel="stylesheet" href="/app.css"></head>
        <body><main><h1>Album</h1><p role="alert" id="closed">\(text)</p></main></body>
        </html>
        """
    }

    /// The form asking a share link's PIN; `action` is the link's own address, `message` (safe in
    /// HTML) why it is asked again.
    static func pinForm(action: String, message: String?) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Album</title><link rel="stylesheet" href="/app.css"></head>
        <body><main><h1>Album</h1>
        <form method="post" action="\(action)" class="tools">
        <label>PIN <input type="password" name="pin" id="pin" autocomplete="off" required autofocus></label>
        <button type="submit">Open the album</button>
        </form>
        \(message.map { "<p role=\"alert\" id=\"wrong\">\($0)</p>" } ?? "")
        </main></body>
        </html>
        """
    }

    static let style = """
        :root { font-family: system-ui, sans-serif; color: #222; background: #fafafa; }
        body { margin: 0; }
        header { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid #ddd;
          padding: .6rem 1rem; display: flex; gap: 1rem; align-items: baseline; }
        header a { font-weight: 600; text-decoration: none; color: #0b57d0; }
        main { padding: .5rem 1rem; }
        main:focus { outline: none; }
        .albums { list-style: none; padding: 0; display: grid; gap: 1rem;
          grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); }
        .albums li a { display: block; color: inherit; text-decoration: none; }
        .albums img { width: 100%; aspect-ratio: 1; object-fit: cover; background: #ddd; border-radius: .4rem; }
        .albums .meta, .muted { color: #666; font-size: .85rem; }
        .tree ul { list-style: none; padding-left: 1.2rem; }
        .tree a { text-decoration: none; }
        .tools { display: flex; flex-wrap: wrap; gap: .8rem; align-items: center; margin-bottom: .5rem; }
        .drop { border: 2px dashed #aaa; border-radius: .4rem; padding: .4rem .8rem; }
        .drop.over { border-color: #0b57d0; background: #eef3fd; }
        .uploads { list-style: none; padding: 0; margin: 0 0 .5rem; font-size: .9rem; }
        .uploads progress { width: 8rem; vertical-align: middle; }
        .scroller { position: relative; overflow-y: auto; height: calc(100vh - 9rem); }
        .rows { position: sticky; top: 0; overflow: hidden; }
        .row { position: absolute; left: 0; right: 0; display: flex; gap: 4px; }
        .cell { display: block; flex: 0 0 auto; background: #ddd; overflow: hidden; }
        .cell img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .cell .badge { position: relative; top: -1.6rem; left: .3rem; color: #fff; font-size: .75rem;
          text-shadow: 0 0 3px #000; }
        .photo { display: grid; gap: 1rem; grid-template-columns: minmax(0, 3fr) minmax(12rem, 1fr); }
        .photo img, .photo video { width: 100%; max-height: calc(100vh - 8rem); object-fit: contain; background: #eee; }
        .uploads { margin-top: .4rem; }
        .photo dl { display: grid; grid-template-columns: auto 1fr; gap: .3rem .8rem; margin: 0; }
        .photo dt { color: #666; }
        .photo dd { margin: 0; overflow-wrap: anywhere; }
        .nav { display: flex; gap: 1rem; margin: .5rem 0; }
        @media (max-width: 40rem) { .photo { grid-template-columns: 1fr; } }
        """
}
