#!/usr/bin/env python3
"""Checks `album serve` from outside, as a phone or an attacker would: run by ServeCLITests.

    check-serve.py http    ALBUM LIBRARY STATE_DIR WORK_DIR
    check-serve.py browser ALBUM LIBRARY STATE_DIR WORK_DIR SCREENSHOTS_DIR
    check-serve.py kill    ALBUM LIBRARY STATE_DIR WORK_DIR TRIALS
    check-serve.py tls     ALBUM LIBRARY STATE_DIR WORK_DIR OPENSSL
    check-serve.py two     ALBUM LIBRARY STATE_DIR WORK_DIR        (a shared library)
    check-serve.py share   ALBUM LIBRARY STATE_DIR WORK_DIR
    check-serve.py share-browser ALBUM LIBRARY STATE_DIR WORK_DIR SCREENSHOTS_DIR
    check-serve.py forge   ALBUM LIBRARY STATE_DIR WORK_DIR TRIALS   (the reliability harness's serveshare)
    check-serve.py uploads ALBUM LIBRARY STATE_DIR WORK_DIR        (one request per photo, cuts, reloads)
    check-serve.py gridtasks ALBUM LIBRARY STATE_DIR WORK_DIR      (the first screen's thumbnails in one task, then a few a task)
    check-serve.py gridrefresh ALBUM LIBRARY STATE_DIR WORK_DIR    (the grid after a save: a failed refresh retried, none after leaving)
    check-serve.py cut     ALBUM LIBRARY STATE_DIR WORK_DIR TRIALS   (the reliability harness's servecut)

`http` needs only Python: the access token and its cookie, refusals (no cookie, no CSRF header, a
foreign Origin, traversal, a header too large, a cut body), byte ranges, the resumable upload
protocol, and a server killed with SIGKILL in the middle of an upload (nothing half-saved; the
upload resumes on the next server from its offset and is saved with its SHA-256).
`browser` drives Debian's Chromium with Playwright: albums, an album, a photo, uploads through the
file input (photos and a video), seen afterwards by `album show`; a 1 GiB video cut at 60 % and
resumed (needs 4 GiB free); screenshots kept.
`share` checks share links over HTTP (a guest sees one album and nothing else, view-only links
do not upload, forged tokens, traversal through /s/, PINs and their limit, revoked and expired links);
`share-browser` does it in Chromium.
`kill` (the reliability harness's servekill) kills the server with SIGKILL at random moments of
uploads, TRIALS times, and checks the library after each.
Each check prints one line; the first failure ends the run with status 1.
"""
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse


def fail(message):
    print("FAILED: " + message, flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message, flush=True)


class Server:
    """`album serve` on a free loopback port, as a child process of this script."""

    def __init__(self, album, library, state, extra=()):
        self.album, self.library, self.state = album, library, state
        env = dict(os.environ, XDG_STATE_HOME=state, HOME=state)
        self.process = subprocess.Popen(
            [album, "serve", "--library", library, "--listen", "127.0.0.1:0"] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        deadline = time.time() + 30
        self.link = None
        while time.time() < deadline and self.link is None:
            line = self.process.stdout.readline()
            if not line:
                fail("album serve printed no link: " + self.process.stderr.read())
            found = re.search(r"(https?://\S+/\?token=([0-9a-f]{64}))", line)
            if found:
                self.link, self.token = found.group(1), found.group(2)
        if self.link is None:
            fail("album serve printed no link within 30 s")
        parsed = urllib.parse.urlparse(self.link)
        self.host, self.port = parsed.hostname, parsed.port
        self.cookie = "albumkit_owner=" + self.token
        self.csrf = hashlib.sha256(("albumkit-serve-csrf\n" + self.token).encode()).hexdigest()
        self.scheme = parsed.scheme
        self.origin = "%s://%s:%d" % (self.scheme, self.host, self.port)

    def request(self, method, path, body=None, headers=None, owner=True, csrf=True):
        if self.scheme == "https":
            import ssl
            connection = http.client.HTTPSConnection(self.host, self.port, timeout=30, context=ssl._create_unverified_context())
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        sent = dict(headers or {})
        if owner:
            sent["Cookie"] = self.cookie
        if csrf and method in ("POST", "PATCH", "DELETE"):
            sent["X-CSRF-Token"] = self.csrf
            sent.setdefault("Origin", self.origin)
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def raw(self, payload, read=True):
        """Sends bytes as they are (a request no HTTP client would make); the status, or None when cut."""
        answer = b""
        with socket.create_connection((self.host, self.port), timeout=30) as sock:
            # The server may answer and close before the whole payload is sent (a header too big):
            # what it answered is read all the same; a connection it reset is a cut request.
            try:
                sock.sendall(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass
            if not read:
                return None
            try:
                sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # already closed by the server (ENOTCONN): its answer, if any, is still to read
            while True:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                answer += chunk
        found = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
        return int(found.group(1)) if found else None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def debian_chromium(playwright):
    """Debian's Chromium, headless, driven by Playwright (no browser download)."""
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])


def unique_jpeg(template, text):
    """A copy of a JPEG made unique by a comment segment after its start marker."""
    data = open(template, "rb").read()
    comment = text.encode()
    return data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:]


def large_jpeg(template, megabytes, text):
    """A valid JPEG of about `megabytes` MB: comment segments of 64 KB after its start marker."""
    data = open(template, "rb").read()
    filler = bytearray()
    segment = (text.encode() * 70000)[:65533]
    while len(filler) < megabytes * 1_000_000:
        filler += b"\xff\xfe" + (65533 + 2).to_bytes(2, "big") + segment
    return data[:2] + bytes(filler) + data[2:]


def album_show(album, library, title):
    run = subprocess.run([album, "show", "--library", library, "--json", title], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def http_checks(album, library, state, work):
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    server = Server(album, library, state)
    try:
        status, headers, _ = server.request("GET", "/?token=" + server.token, owner=False)
        check(status == 303 and headers.get("location") == "/", "the printed link redirects to an address without the token")
        cookie = headers.get("set-cookie", "")
        check("HttpOnly" in cookie and "SameSite=Strict" in cookie and server.token in cookie,
              "the token becomes an HttpOnly, SameSite=Strict cookie")
        status, headers, _ = server.request("GET", "/?token=" + server.token, owner=False,
                                            headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"})
        check("Secure" not in headers.get("set-cookie", ""), "X-Forwarded-Proto is not believed without --trust-proxy")
        status, _, _ = server.request("POST", "/api/uploads", headers={
            "X-Album-Title": "Trip", "Origin": "http://evil.example", "X-Forwarded-Host": "evil.example"})
        check(status == 403, "X-Forwarded-Host is not believed without --trust-proxy (a foreign Origin stays refused)")
        status, headers, _ = server.request("GET", "/")
        check(status == 200 and "script-src 'self'" in headers.get("content-security-policy", ""),
              "the page is sent with a Content-Security-Policy allowing only its own scripts")
        status, _, _ = server.request("GET", "/?token=" + "0" * 64, owner=False)
        check(status == 403, "a link with another token is refused (403)")
        for path in ("/api/albums", "/", "/app.js", "/api/original?asset=x"):
            status, _, _ = server.request("GET", path, owner=False)
            check(status == 401, "GET %s without the owner cookie is refused (401)" % path)
        status, _, body = server.request("GET", "/api/albums")
        albums = json.loads(body)["albums"]
        check(status == 200 and any(a["title"] == "Trip" for a in albums), "the owner lists the albums")
        trip = next(a for a in albums if a["title"] == "Trip")
        status, _, body = server.request("GET", "/api/album-assets?album=%s&offset=0&limit=10" % urllib.parse.quote(trip["id"], safe=""))
        assets = json.loads(body)["assets"]
        check(status == 200 and len(assets) == trip["count"], "the album's assets are listed")
        status, _, body = server.request("GET", "/api/album-assets?album=%s&offset=1&limit=1" % urllib.parse.quote(trip["id"], safe=""))
        check(json.loads(body)["assets"][0]["id"] == assets[1]["id"], "a position of the album is reached by offset")
        # Sorted by date taken: the order `album assets --order taken` lists, page by page. A photo
        # without a date (taken: when added) saved first, then two taken in 2024.
        for index, (name, source) in enumerate((("undated.png", "png-plain.png"), ("early-1.jpg", "jpeg-gps-ne-be.jpg"),
                                                 ("early-2.jpg", "jpeg-thumbnail.jpg"))):
            path = os.path.join(work, name)
            data = open(os.path.join(corpus, source), "rb").read()
            open(path, "wb").write(data + b"sorted %d %f" % (index, time.time()) if source.endswith(".png") else unique_jpeg(os.path.join(corpus, source), "sorted %f" % time.time()))
            subprocess.run([album, "save", "--library", library, "--album", "Sorted", path], capture_output=True, check=True)
        sorted_album = album_ids(server)["Sorted"]
        def listed(order):
            run = subprocess.run([album, "assets", "--library", library, "--json", "--album", "Sorted", "--order", order],
                                 capture_output=True, text=True)
            return [entry["id"] for entry in json.loads(run.stdout)]
        def served(order):
            ids = []
            for offset in range(0, sorted_album["count"], 2):
                _, _, body = server.request("GET", "/api/album-assets?album=%s&offset=%d&limit=2&order=%s" % (quoted(sorted_album["id"]), offset, order))
                ids += [a["id"] for a in json.loads(body)["assets"]]
            return ids
        check(served("taken") == listed("taken") and served("added") == listed("added") and listed("taken") != listed("added"),
              "order=taken and order=added give the album as album assets --order lists it, page by page")
        photo = assets[0]
        status, headers, whole = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""))
        check(status == 200 and headers.get("accept-ranges") == "bytes" and len(whole) == photo["size"],
              "the original is sent whole, with Accept-Ranges")
        status, headers, part = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""), headers={"Range": "bytes=4-13"})
        check(status == 206 and part == whole[4:14] and headers.get("content-range") == "bytes 4-13/%d" % len(whole),
              "a byte range is answered 206 with those bytes")
        status, _, _ = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""), headers={"Range": "bytes=%d-" % (len(whole) + 5)})
        check(status == 416, "a range past the end is answered 416")
        for asked, answer in (("bytes=0-1,5-6", 200), ("items=0-1", 200), ("bytes=abc", 200), ("bytes=9-2", 200),
                              ("bytes=-0", 416), ("bytes=99999999999999999999999-", 416),
                              ("bytes=4-99999999999999999999999", 206), ("bytes=-99999999999999999999999", 200)):
            status, headers, part = server.request("GET", "/api/original?asset=%s" % quoted(photo["id"]), headers={"Range": asked})
            expected = {200: whole, 206: whole[4:], 416: b""}[answer]
            check(status == answer and part == expected,
                  "Range: %s is answered %d (%d, %d bytes): several ranges, another unit or a malformed one are ignored" % (asked, answer, status, len(part)))
        status, headers, _ = server.request("GET", "/api/thumbnail?asset=%s" % urllib.parse.quote(photo["id"], safe=""))
        check(status == 200 and headers.get("content-type", "").startswith("image/"), "a thumbnail (or the placeholder) is an image")
        if headers.get("etag"):
            status, _, body = server.request("GET", "/api/thumbnail?asset=%s" % quoted(photo["id"]), headers={"If-None-Match": headers["etag"]})
            check(status == 304 and body == b"", "a thumbnail asked again with its ETag is answered 304 Not Modified")
        run = thumbnail_run(server.request, trip["id"], 0, 100)
        check(run is not None and [item["id"] for item in run] == [a["id"] for a in assets[:len(run)]] and len(run) == min(trip["count"], 100),
              "/api/thumbnails gives the album's places' thumbnails in one answer, each named by its asset")
        singles = [server.request("GET", "/api/thumbnail?asset=%s" % quoted(item["id"]))[2] for item in run]
        check(all(item["bytes"] == single for item, single in zip(run, singles) if item["size"]),
              "each thumbnail of the run is the bytes /api/thumbnail gives for its asset")
        status, headers, body = server.request("GET", "/api/preview?asset=%s" % urllib.parse.quote(photo["id"], safe=""))
        check((status == 200 and headers.get("content-type", "").startswith("image/") and len(body) > 0)
              or (status == 307 and headers.get("location", "").startswith("/api/original?asset=")),
              "the photo page's preview is an image (or, without libvips, the way to the original): %d" % status)

        # Changes need the CSRF header and this server's origin.
        status, _, _ = server.request("POST", "/api/uploads", headers={"X-Album-Title": "Trip"}, csrf=False)
        check(status == 403, "a POST without the CSRF header is refused (403)")
        status, _, _ = server.request("POST", "/api/uploads", headers={"X-Album-Title": "Trip", "X-CSRF-Token": "0" * 64, "Origin": server.origin}, csrf=False)
        check(status == 403, "a POST with a wrong CSRF token is refused (403)")
        status, _, _ = server.request("POST", "/api/uploads", headers={"X-Album-Title": "Trip", "Origin": "http://evil.example"})
        check(status == 403, "a POST from another origin is refused (403)")
        status, _, _ = server.request("POST", "/api/uploads", headers={"X-Album-Title": "Trip"}, owner=False)
        check(status == 401, "a POST without the owner cookie is refused (401)")

        # Hostile requests: clean 4xx, and the server still answers after each.
        for path in ("/api/../../etc/passwd", "/api/%2e%2e/%2e%2e/etc/passwd", "/api/original?asset=..%2f..%2fetc%2fpasswd",
                     "/api/original?asset=%2e%2e/%2e%2e/etc/passwd", "/api/original?asset=/etc/passwd", "/..",
                     "/api/album-assets?album=..%5c..%5cx", "/api/thumbnail?asset=x%00/../../etc/passwd", "/a%00b"):
            status = server.raw(("GET %s HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n\r\n" % (path, server.cookie)).encode())
            check(status is not None and 400 <= status < 500, "traversal %s is refused (%s)" % (path, status))
        status = server.raw(b"GET /api/albums HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
        check(status is None or 400 <= status < 500, "a 200 KB header is refused (%s)" % status)
        server.raw(b"PATCH /api/uploads/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc", read=False)
        status = server.raw(b"GARBAGE\r\n\r\n")
        check(status is None or 400 <= status < 500, "a malformed request line is refused (%s)" % status)
        status, _, _ = server.request("GET", "/api/albums")
        check(status == 200, "the server still answers after hostile requests")

        # Not a photo or video: refused before anything is saved.
        text = b"this is a text file, not a photo " * 100
        status, headers, body = server.request("POST", "/api/uploads", body=text, headers={
            "X-Album-Title": "Trip", "X-File-Name": "notes.txt", "Upload-Length": str(len(text)), "Upload-Complete": "?1"})
        check(status == 415 and json.loads(body)["result"] == "not a photo or video", "a text file is refused as not a photo or video")
        # A photo cut short: judged by the save, as `album save` judges it.
        cut = unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve damaged " * 30)
        cut = cut[:len(cut) - 200]
        status, _, body = server.request("POST", "/api/uploads", body=cut, headers={
            "X-Album-Title": "Trip", "X-File-Name": "cut.jpg", "Upload-Length": str(len(cut)), "Upload-Complete": "?1"})
        answer = json.loads(body)
        check(status == 415 and answer["result"] == "damaged" and "cut.jpg" in answer["error"] and "/uploads/" not in answer["error"],
              "a photo cut short is refused as damaged, naming the file and not the server's folders: %s" % answer.get("error"))
        # Resumable upload: created empty, appended in two pieces, a wrong offset refused with the real one.
        jpeg = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve resumable")
        status, headers, _ = server.request("POST", "/api/uploads", headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "resumed.jpg", "Upload-Length": str(len(jpeg)), "Upload-Complete": "?0"})
        location = headers.get("location", "")
        check(status == 201 and location.startswith("/api/uploads/"), "an upload is created (201 with its Location)")
        status, headers, _ = server.request("PATCH", location, body=jpeg[:100], headers={"Upload-Offset": "0", "Upload-Complete": "?0", "Content-Type": "application/partial-upload"})
        check(status == 204 and headers.get("upload-offset") == "100", "a piece is appended (Upload-Offset 100)")
        status, headers, _ = server.request("HEAD", location)
        check(status == 204 and headers.get("upload-offset") == "100", "HEAD gives the upload's offset")
        status, headers, _ = server.request("PATCH", location, body=jpeg[50:], headers={"Upload-Offset": "50", "Upload-Complete": "?1"})
        check(status == 409 and headers.get("upload-offset") == "100", "a piece at the wrong offset is refused (409 with the real offset)")
        status, headers, body = server.request("PATCH", location, body=jpeg[100:], headers={"Upload-Offset": "100", "Upload-Complete": "?1"})
        check(status == 200 and json.loads(body)["result"] == "saved", "the last piece saves the photo (%d %s)" % (status, body[:300]))
        status, headers, body = server.request("POST", "/api/uploads", body=jpeg, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "again.jpg", "Upload-Length": str(len(jpeg)), "Upload-Complete": "?1"})
        check(status == 200 and json.loads(body)["result"] == "already in the library", "the same bytes again are already in the library")
        code, shown = album_show(album, library, "Uploaded")
        check(code == 0 and "resumed.jpg" in shown and "again.jpg" not in shown, "album show lists the uploaded photo once")
        # A sidecar sent with its photo: kept until the photo arrives, then saved as its companion.
        xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
               '<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>').encode()
        status, _, body = server.request("POST", "/api/uploads", body=xmp, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "rated.xmp", "Upload-Length": str(len(xmp)), "Upload-Complete": "?1",
            "X-Sidecar": "?1"})
        kept = json.loads(body)
        check(status == 200 and kept["result"] == "kept for its photo", "a sidecar is kept until its photo arrives")
        rated = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve sidecar %f" % time.time())
        status, _, body = server.request("POST", "/api/uploads", body=rated, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "rated.jpg", "Upload-Length": str(len(rated)), "Upload-Complete": "?1",
            "X-Companions": kept["upload"]})
        answer = json.loads(body)
        check(status == 200 and answer["result"] == "saved" and answer.get("sidecars") == ["rated.xmp"],
              "the photo is saved with its sidecar in one save: %s" % answer)
        listed = json.loads(subprocess.run([album, "assets", "--library", library, "--json", "--album", "Uploaded"], capture_output=True, text=True).stdout or "[]")
        entry = next((e for e in listed if (e.get("file") or e.get("name") or "").endswith("rated.jpg")), {})
        check(any(c.get("file", "").endswith(".xmp") for c in entry.get("companions", [])) or entry.get("rating") == 4,
              "album assets lists the sidecar as the photo's companion: %s" % entry)
        status, _, _ = server.request("HEAD", "/api/uploads/" + kept["upload"])
        check(status == 404, "the sidecar's upload is gone once saved with its photo")
        status, _, body = server.request("POST", "/api/uploads", body=xmp, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "alone.xmp", "Upload-Length": str(len(xmp)), "Upload-Complete": "?1"})
        check(status == 415, "a sidecar sent as a photo is refused as not a photo or video")
        status, _, body = server.request("POST", "/api/uploads", body=rated, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "photo.jpg", "Upload-Length": str(len(rated)), "Upload-Complete": "?1",
            "X-Sidecar": "?1"})
        check(status == 400 and "not a sidecar" in json.loads(body)["error"], "a photo sent as a sidecar is refused with a message")
        status, _, body = server.request("POST", "/api/uploads", body=rated, headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "photo.jpg", "Upload-Length": str(len(rated)), "Upload-Complete": "?1",
            "X-Companions": "00000000-0000-4000-8000-000000000000"})
        check(status == 400 and "sidecar" in json.loads(body)["error"], "a photo naming a sidecar upload that is not there is refused")
        status, _, body = server.request("POST", "/api/uploads", body=b"", headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "huge.mov", "Upload-Length": str(1 << 50), "Upload-Complete": "?0"})
        check(status == 400 and "over the largest file" in json.loads(body)["error"], "an upload over the size limit is refused with a message")
        before = staged(state)
        status, _, body = server.request("POST", "/api/uploads", body=b"", headers={
            "X-Album-Title": quoted("Trip\x1b[2J"), "X-File-Name": "title.jpg", "Upload-Length": "8000000", "Upload-Complete": "?0"})
        check(status == 400 and "control character" in json.loads(body)["error"] and staged(state) == before,
              "an upload into a title no album can have is refused before its bytes, saying why (%d %s)" % (status, body[:120]))

        # SIGKILL in the middle of an upload: nothing half-saved, and the upload resumes on a new server.
        big = large_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), 24, "check-serve kill")
        status, headers, _ = server.request("POST", "/api/uploads", headers={
            "X-Album-Title": "Killed", "X-File-Name": "big.jpg", "Upload-Length": str(len(big)), "Upload-Complete": "?0"})
        location = headers["location"]
        status, headers, _ = server.request("PATCH", location, body=big[:8_000_000], headers={"Upload-Offset": "0", "Upload-Complete": "?0"})
        check(status == 204 and headers.get("upload-offset") == "8000000", "8 MB of a 24 MB upload acknowledged")
        with socket.create_connection((server.host, server.port), timeout=30) as sock:
            sock.sendall(("PATCH %s HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nX-CSRF-Token: %s\r\nUpload-Offset: 8000000\r\nUpload-Complete: ?1\r\nContent-Length: %d\r\n\r\n"
                          % (location, server.cookie, server.csrf, len(big) - 8_000_000)).encode())
            sock.sendall(big[8_000_000:14_000_000])
            time.sleep(0.5)
            server.kill()
        code, shown = album_show(album, library, "Killed")
        check(code != 0 or "big.jpg" not in shown, "after SIGKILL mid-upload the library holds no part of it")
        verify = subprocess.run([album, "verify", "--library", library], capture_output=True, text=True)
        check(verify.returncode == 0, "album verify finds the library healthy after the SIGKILL")
        server = Server(album, library, state)
        status, headers, _ = server.request("HEAD", location)
        offset = int(headers.get("upload-offset", "-1"))
        check(status == 204 and 8_000_000 <= offset <= 14_000_000, "the new server knows the upload's offset (%d)" % offset)
        status, headers, body = server.request("PATCH", location, body=big[offset:], headers={"Upload-Offset": str(offset), "Upload-Complete": "?1"})
        check(status == 200 and json.loads(body)["result"] == "saved", "the upload resumes from that offset and is saved")
        code, shown = album_show(album, library, "Killed")
        check(hashlib.sha256(big).hexdigest()[:12] in shown or "big.jpg" in shown, "album show lists it")
        listed = json.loads(subprocess.run([album, "assets", "--library", library, "--json", "--album", "Killed"], capture_output=True, text=True).stdout or "[]")
        # A catalog lists each asset's SHA-256; a folder library lists its file, hashed here.
        sums = [entry.get("sha256") or (entry.get("path") and hashlib.sha256(open(entry["path"], "rb").read()).hexdigest())
                for entry in (listed if isinstance(listed, list) else listed.get("assets", []))]
        check(hashlib.sha256(big).hexdigest() in sums, "the saved asset has the SHA-256 of the bytes sent")
    finally:
        server.stop()
    # Behind a reverse proxy, told with --trust-proxy: its X-Forwarded-Host and -Proto are believed.
    proxied = Server(album, library, state, ["--trust-proxy"])
    try:
        forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "photos.example.org"}
        status, headers, _ = proxied.request("GET", "/?token=" + proxied.token, owner=False, headers=forwarded)
        check(status == 303 and "Secure" in headers.get("set-cookie", ""), "with --trust-proxy, X-Forwarded-Proto: https makes the cookie Secure")
        status, _, _ = proxied.request("DELETE", "/api/uploads/00000000-0000-4000-8000-000000000000",
                                       headers=dict(forwarded, Origin="https://photos.example.org"))
        check(status == 204, "with --trust-proxy, a change from the proxy's origin (X-Forwarded-Host) is accepted")
        status, _, _ = proxied.request("DELETE", "/api/uploads/00000000-0000-4000-8000-000000000000",
                                       headers=dict(forwarded, Origin="https://evil.example"))
        check(status == 403, "with --trust-proxy, a change from another origin is still refused")
    finally:
        proxied.stop()


def share_link(album, library, title, *options, pin=None):
    """`album share` of album `title`: the link's id and token."""
    run = subprocess.run([album, "share", "--library", library, "--json", title] + list(options),
                         capture_output=True, text=True, input=pin)
    if run.returncode != 0:
        fail("album share %s: %s" % (title, run.stderr.strip()))
    made = json.loads(run.stdout)
    return made["id"], made["path"][len("/s/"):]


def unshare(album, library, given):
    run = subprocess.run([album, "unshare", "--library", library, given], capture_output=True, text=True)
    check(run.returncode == 0, "album unshare %s: %s" % (given, (run.stdout + run.stderr).strip()))


class Guest:
    """A guest of a share link over HTTP: its cookie (set by opening /s/TOKEN) and its CSRF token."""

    def __init__(self, server, token):
        self.server, self.token, self.cookie = server, token, None
        self.csrf = hashlib.sha256(("albumkit-serve-csrf\n" + token).encode()).hexdigest()

    def open(self, pin=None):
        if pin is None:
            status, headers, body = self.server.request("GET", "/s/" + self.token, owner=False)
        else:
            form = urllib.parse.urlencode({"pin": pin}).encode()
            status, headers, body = self.server.request("POST", "/s/" + self.token, body=form, owner=False, csrf=False,
                                                        headers={"Content-Type": "application/x-www-form-urlencoded",
                                                                 "Origin": self.server.origin})
        found = re.match(r"albumkit_guest=([^;]*)", headers.get("set-cookie", ""))
        if found and found.group(1):
            self.cookie = "albumkit_guest=" + found.group(1)
        return status, headers, body

    def request(self, method, path, body=None, headers=None):
        sent = dict(headers or {})
        if self.cookie:
            sent["Cookie"] = self.cookie
        if method in ("POST", "PATCH", "DELETE"):
            sent.setdefault("X-CSRF-Token", self.csrf)
            sent.setdefault("Origin", self.server.origin)
        return self.server.request(method, path, body=body, headers=sent, owner=False, csrf=False)


class GuestEvents:
    """A guest's `/api/events` stream on a connection of its own, its `data:` events read by a thread."""

    def __init__(self, server, cookie):
        import queue
        self.events = queue.Queue()
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=120)
        self.connection.request("GET", "/api/events", headers={"Cookie": cookie})
        self.response = self.connection.getresponse()
        check(self.response.status == 200 and self.response.getheader("Content-Type") == "text/event-stream",
              "a guest's page may listen to its album's changes (%d)" % self.response.status)

        def read():
            try:
                # The stream's chunks are whole events: a line of one is never split between two.
                for line in self.response.fp:
                    text = line.decode(errors="replace")
                    if text.startswith("data: "):
                        self.events.put(json.loads(text[len("data: "):]))
            except (OSError, ValueError):
                pass  # closed by close(), or the server went away: no more events

        threading.Thread(target=read, daemon=True).start()

    def next_event(self, seconds):
        """The next `data:` event as JSON, or None when none came within `seconds`."""
        import queue
        try:
            return self.events.get(timeout=seconds)
        except queue.Empty:
            return None

    def close(self):
        self.connection.close()


def thumbnail_run(request, album_id, offset, limit):
    """`/api/thumbnails` of an album's places: its items, each with its bytes; None when refused or malformed."""
    status, headers, body = request("GET", "/api/thumbnails?album=%s&offset=%d&limit=%d" % (quoted(album_id), offset, limit))
    if status != 200 or b"\n" not in body:
        return None
    head, rest = body.split(b"\n", 1)
    items = json.loads(head)["items"]
    at = 0
    for item in items:
        item["bytes"] = rest[at:at + item["size"]]
        at += item["size"]
        if item["size"] and not (item["bytes"].startswith(b"\xff\xd8") or item["bytes"].startswith(b"\x89PNG")):
            return None
    return items if at == len(rest) else None


def album_ids(server):
    _, _, body = server.request("GET", "/api/albums")
    return {a["title"]: a for a in json.loads(body)["albums"]}


def first_asset(server, album_id):
    _, _, body = server.request("GET", "/api/album-assets?album=%s&offset=0&limit=1" % urllib.parse.quote(album_id, safe=""))
    return json.loads(body)["assets"][0]["id"]


def quoted(text):
    return urllib.parse.quote(text, safe="")


def share_checks(album, library, state, work):
    """Share links over HTTP: a guest sees the link's album and nothing else, a view-only link cannot
    upload, an adding one saves into its album only, forged and guessed tokens open nothing, a PIN
    is asked and its wrong tries are limited, a revoked or expired link stops at the next request."""
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    other = os.path.join(work, "other.jpg")
    open(other, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve share other"))
    saved = subprocess.run([album, "save", "--library", library, "--album", "Other", other], capture_output=True, text=True)
    check(saved.returncode == 0, "a second album, Other, is saved by the CLI")
    server = Server(album, library, state)
    try:
        albums = album_ids(server)
        trip, elsewhere = albums["Trip"], albums["Other"]
        outside = first_asset(server, elsewhere["id"])
        inside = first_asset(server, trip["id"])
        link_id, token = share_link(album, library, "Trip")
        guest = Guest(server, token)
        status, headers, _ = guest.open()
        cookie = headers.get("set-cookie", "")
        check(status == 303 and headers.get("location") == "/" and "HttpOnly" in cookie and "SameSite=Strict" in cookie,
              "/s/TOKEN gives an HttpOnly, SameSite=Strict guest cookie and leads to the album")
        status, _, body = guest.request("GET", "/")
        check(status == 200 and b'name="guest"' in body, "the guest gets the page")
        status, _, body = guest.request("GET", "/api/album-assets?album=%s&offset=0&limit=100" % quoted(trip["id"]))
        check(status == 200 and len(json.loads(body)["assets"]) == trip["count"], "the guest lists the link's album")
        status, headers, body = guest.request("GET", "/api/original?asset=%s" % quoted(inside))
        check(status == 200 and len(body) > 0, "the guest downloads an original of the album")
        status, _, _ = guest.request("GET", "/api/original?asset=%s" % quoted(inside), headers={"Range": "bytes=0-9"})
        check(status == 206, "the guest's original is served with ranges")
        run = thumbnail_run(guest.request, trip["id"], 0, 100)
        check(run is not None and len(run) == trip["count"], "the guest gets the link's album's thumbnails in one answer")
        for path, what in (("/api/thumbnails?album=%s&offset=0&limit=10" % quoted(elsewhere["id"]), "another album's thumbnails"),
                           ("/api/album-assets?album=%s" % quoted(elsewhere["id"]), "another album's listing"),
                           ("/api/cover?album=%s" % quoted(elsewhere["id"]), "another album's cover"),
                           ("/api/original?asset=%s" % quoted(outside), "another album's original"),
                           ("/api/thumbnail?asset=%s" % quoted(outside), "another album's thumbnail"),
                           ("/api/preview?asset=%s" % quoted(outside), "another album's preview"),
                           ("/api/original?asset=%s" % quoted("../" + inside), "a traversal to an asset")):
            status, _, _ = guest.request("GET", path)
            check(status == 404, "the guest cannot reach %s (404, got %d)" % (what, status))
        for path in ("/api/albums", "/api/nothing", "/app.js/../api/albums"):
            status, _, _ = guest.request("GET", path)
            check(status in (400, 403), "the guest cannot reach %s (%d)" % (path, status))
        status, _, _ = guest.request("GET", "/?token=" + "0" * 64)
        check(status == 403, "the guest cannot become the owner with a guessed token")
        jpeg = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve guest upload view-only")
        status, _, _ = guest.request("POST", "/api/uploads", body=jpeg, headers={
            "X-Album-Title": "Trip", "X-File-Name": "guest.jpg", "Upload-Length": str(len(jpeg)), "Upload-Complete": "?1"})
        check(status == 403, "a view-only link cannot upload (403)")
        status, _, _ = guest.request("POST", "/api/uploads", body=jpeg, headers={
            "X-Album-Title": "Trip", "X-File-Name": "guest.jpg", "Upload-Length": str(len(jpeg)), "Upload-Complete": "?1",
            "X-CSRF-Token": server.csrf})
        check(status == 403, "the owner's CSRF token does not stand for the guest's")

        # Forged, guessed and malformed tokens, and traversal through /s/: nothing opens.
        for path in ("/s/" + "0" * 64, "/s/" + token[:-1] + ("0" if token[-1] != "0" else "1"), "/s/" + token.upper(),
                     "/s/" + token + "/x", "/s/", "/s/x"):
            status, headers, _ = server.request("GET", path, owner=False)
            check(status == 404 and "albumkit_guest=;" in headers.get("set-cookie", "albumkit_guest=;"),
                  "%s opens nothing (404)" % path[:24])
        for path in ("/s/../api/albums", "/s/%2e%2e/api/albums", "/s/" + token + "/../../api/albums", "/s/..%2fapi%2falbums"):
            status = server.raw(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
            check(status is not None and 400 <= status < 500, "traversal %s is refused (%s)" % (path[:30], status))
        forged = Guest(server, "1" * 64)
        forged.cookie = "albumkit_guest=" + "1" * 64
        status, _, _ = forged.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 404, "a forged guest cookie opens nothing")

        # A link that adds: saved into its album by its id, whatever title is sent.
        add_id, add_token = share_link(album, library, "Trip", "--add")
        adder = Guest(server, add_token)
        adder.open()
        # The guest's change feed: nothing of another album, one event naming its own.
        stream = GuestEvents(server, adder.cookie)
        elsewhere_photo = os.path.join(work, "events-elsewhere.jpg")
        open(elsewhere_photo, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve events elsewhere %f" % time.time()))
        subprocess.run([album, "save", "--library", library, "--album", "Other", elsewhere_photo], capture_output=True, check=True)
        quiet = stream.next_event(seconds=4)
        check(quiet is None, "a save into another album sends the guest's event stream nothing (got %r)" % quiet)
        added = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve guest upload adds")
        status, _, body = adder.request("POST", "/api/uploads", body=added, headers={
            "X-Album-Title": "Other", "X-File-Name": "from-guest.jpg", "Upload-Length": str(len(added)), "Upload-Complete": "?1"})
        check(status == 200 and json.loads(body)["result"] == "saved", "a guest of an adding link uploads a photo (%d %s)" % (status, body[:200]))
        check(hashlib.sha256(added).hexdigest() in asset_sums(album, library, "Trip")
              and hashlib.sha256(added).hexdigest() not in asset_sums(album, library, "Other"),
              "the guest's photo is in the link's album, not the album its request named")
        status, headers, _ = server.request("POST", "/api/uploads", headers={
            "X-Album-Title": "Other", "X-File-Name": "owner.jpg", "Upload-Length": "1000", "Upload-Complete": "?0"})
        location = headers.get("location", "")
        status, _, _ = adder.request("HEAD", location)
        check(status == 404, "a guest cannot reach the owner's upload")
        server.request("DELETE", location)
        heard = stream.next_event(seconds=30)
        check(heard == {"albums": [trip["id"]]}, "the guest's save into its album is an event naming that album only (%r)" % heard)

        # A link's holder opening page after page of its change feed from one address (as many
        # connections as the server gives one address, the feed above among them) holds 8 of them:
        # the others are told to ask again later and closed, and the owner, from the same address,
        # is still answered.
        held, busy = [], 0
        for _ in range(31):
            sock = socket.create_connection((server.host, server.port), timeout=10)
            sock.sendall(("GET /api/events HTTP/1.1\r\nHost: %s:%d\r\nCookie: %s\r\n\r\n"
                          % (server.host, server.port, adder.cookie)).encode())
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                head += chunk
            sock.settimeout(1)
            rest = b""
            try:
                while True:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    rest += chunk
            except socket.timeout:
                pass
            if (head + rest).find(b"retry: 60000") >= 0:
                busy += 1
                sock.settimeout(5)
                check((head + rest).endswith(b"\n\n") and sock.recv(1) == b"",
                      "a change feed beyond the link's share is answered and its connection closed")
                sock.close()
            else:
                held.append(sock)
        check(len(held) == 7 and busy == 24, "one link's guest holds 8 change feeds of 32 asked (%d more held, %d told to wait)"
              % (len(held), busy))
        status, _, _ = server.request("GET", "/api/albums")
        check(status == 200, "the owner is answered from the same address while the guest holds its feeds (%d)" % status)
        for sock in held:
            sock.close()

        # Revoked: the next request of a guest already in is refused, and its event stream says to reload.
        unshare(album, library, add_id)
        heard = stream.next_event(seconds=10)
        while heard is not None and heard != {"reload": True}:
            check(heard == {"albums": [trip["id"]]}, "the guest's event stream names its album only (%r)" % heard)
            heard = stream.next_event(seconds=10)
        check(heard == {"reload": True}, "a revoked link's event stream tells the page to reload within 2 s")
        stream.close()
        status, _, _ = adder.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 404, "a revoked link stops at once, for a guest already in (%d)" % status)
        status, _, body = adder.request("GET", "/")
        check(status == 404 and b"revoked" in body, "the revoked guest's page says the link opens nothing")

        # Expired.
        _, soon = share_link(album, library, "Trip", "--expires", "2s")
        late = Guest(server, soon)
        status, _, _ = late.open()
        check(status == 303, "a link that expires soon opens before")
        time.sleep(2.5)
        status, _, body = late.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 410, "once expired it is refused (410)")
        status, _, body = server.request("GET", "/s/" + soon, owner=False)
        check(status == 410 and b"expired" in body, "the expired link's page says so")

        # PIN: asked, a wrong one counted, the right one opens; five wrong ones lock the link.
        _, guarded = share_link(album, library, "Trip", "--pin", pin="2468\n")
        visitor = Guest(server, guarded)
        status, _, body = visitor.open()
        check(status == 200 and b'name="pin"' in body and visitor.cookie is None, "a link with a PIN asks for it first")
        visitor.cookie = "albumkit_guest=" + guarded
        status, _, _ = visitor.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 403, "the token alone, without the PIN, opens nothing")
        visitor.cookie = None
        status, _, body = visitor.open(pin="1357")
        check(status == 403 and b"4 tries left" in body and visitor.cookie is None, "a wrong PIN is refused, 4 tries left")
        status, headers, _ = visitor.open(pin="2468")
        check(status == 303 and visitor.cookie and "." in visitor.cookie, "the right PIN opens the album")
        status, _, _ = visitor.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 200, "the guest who gave the PIN lists the album")
        locked_id, locking = share_link(album, library, "Trip", "--pin", pin="9999\n")
        other_visitor = Guest(server, locking)
        for attempt in range(5):
            status, _, _ = other_visitor.open(pin="000%d" % attempt)
        status, _, body = other_visitor.open(pin="9999")
        check(status == 403 and b"locked" in body, "after 5 wrong PINs even the right one is refused: the link is locked")
        listed = json.loads(subprocess.run([album, "shares", "--library", library, "--json"], capture_output=True, text=True).stdout)
        check(any(entry["id"] == locked_id and entry["locked"] for entry in listed), "album shares lists the link as locked")
        # Wrong PINs sent at once are checked one after another: the fifth locks the link, and the
        # rest are not checked at all (each checked one is counted in the library's links).
        burst_id, burst = share_link(album, library, "Trip", "--pin", pin="2468\n")
        answers = []
        guesses = [threading.Thread(target=lambda number=number: answers.append(Guest(server, burst).open(pin="1%03d" % number)[0]))
                   for number in range(12)]
        for guess in guesses:
            guess.start()
        for guess in guesses:
            guess.join()
        checked = failed_pins(library, burst_id)
        listed = json.loads(subprocess.run([album, "shares", "--library", library, "--json"], capture_output=True, text=True).stdout)
        locked = any(entry["id"] == burst_id and entry["locked"] for entry in listed)
        # (A shared library's count is read with psql; without it, the lock and the answers are checked.)
        check(answers == [403] * 12 and locked and (checked == 5 or (checked is None and library.startswith("postgres"))),
              "12 wrong PINs sent at once: 5 are checked and lock the link, 7 are not checked (%s checked, %s)" % (checked, answers))
        status, _, body = Guest(server, burst).open(pin="2468")
        check(status == 403 and b"locked" in body, "after the burst even the right PIN is refused: the link is locked")
        # The whole link with --url (a trailing / dropped); without it, the path and what to put before it.
        run = subprocess.run([album, "share", "--library", library, "Trip", "--url", server.origin + "/"], capture_output=True, text=True)
        whole = re.search(r"^  (\S+)$", run.stdout, re.M)
        check(run.returncode == 0 and whole and re.fullmatch(re.escape(server.origin) + r"/s/[A-Za-z0-9_-]+", whole.group(1)),
              "album share --url prints the whole link: %s" % run.stdout.strip())
        status, headers, _ = server.request("GET", whole.group(1)[len(server.origin):], owner=False)
        check(status == 303 and "albumkit_guest=" in headers.get("set-cookie", ""), "the whole link album share printed opens the album")
        made = json.loads(subprocess.run([album, "share", "--library", library, "--json", "Trip", "--url", "https://photos.example.org/family"],
                                         capture_output=True, text=True).stdout)
        check(made["url"] == "https://photos.example.org/family" + made["path"], "--json has the whole link as url beside path")
        run = subprocess.run([album, "share", "--library", library, "Trip"], capture_output=True, text=True)
        check(run.returncode == 0 and re.search(r"^  /s/\S+$", run.stdout, re.M) and "http://HOST:PORT before it" in run.stdout,
              "without --url, album share prints the path and says to put the server's address before it")
        for wrong in ("ftp://photos.example.org", "photos.example.org:8080", "http://host/?q=1", "http:// host"):
            run = subprocess.run([album, "share", "--library", library, "Trip", "--url", wrong], capture_output=True, text=True)
            check(run.returncode != 0 and "--url takes the address" in run.stderr, "album share --url %s is refused with the form expected" % wrong)
        # Uploads a link's guests start and never finish: at most 200 of one link, so one link cannot
        # take every place (1 000) and the owner and other links' guests still upload.
        _, flooding = share_link(album, library, "Trip", "--add")
        flooder = Guest(server, flooding)
        flooder.open()
        statuses = []
        for number in range(201):
            status, _, body = flooder.request("POST", "/api/uploads", headers={
                "X-File-Name": "never-%d.jpg" % number, "Upload-Length": str(64 << 30), "Upload-Complete": "?0"})
            statuses.append(status)
        check(statuses[:200] == [201] * 200 and statuses[200] == 400 and b"200 uploads in progress" in body,
              "a link's guests start 200 uploads, the 201st is refused (%s: %s)" % (statuses[-1], body[:120]))
        status, headers, _ = server.request("POST", "/api/uploads", headers={
            "X-Album-Title": "Trip", "X-File-Name": "owner.jpg", "Upload-Length": "1000", "Upload-Complete": "?0"})
        check(status == 201, "the owner still starts an upload (%d)" % status)
        server.request("DELETE", headers["location"])
        _, another = share_link(album, library, "Trip", "--add")
        neighbour = Guest(server, another)
        neighbour.open()
        status, headers, _ = neighbour.request("POST", "/api/uploads", headers={
            "X-File-Name": "neighbour.jpg", "Upload-Length": "1000", "Upload-Complete": "?0"})
        check(status == 201, "another link's guest still starts an upload (%d)" % status)
        unshare(album, library, "Trip")
        listed = json.loads(subprocess.run([album, "shares", "--library", library, "--json"], capture_output=True, text=True).stdout)
        check(not [entry for entry in listed if entry["album"] == "Trip"], "album unshare TITLE revokes every link of the album")
        status, _, _ = guest.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        check(status == 404, "the first guest is out too")
    finally:
        server.stop()


def browser_checks(album, library, state, work, shots):
    from playwright.sync_api import sync_playwright

    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    os.makedirs(shots, exist_ok=True)
    files = []
    for index in range(5):
        path = os.path.join(work, "phone-%d.jpg" % index)
        open(path, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve browser %d" % index))
        files.append(path)
    video = os.path.join(work, "clip.mp4")
    open(video, "wb").write(open(os.path.join(corpus, "mp4-faststart-gps.mp4"), "rb").read())
    files.append(video)
    server = Server(album, library, state)
    try:
        with sync_playwright() as playwright:
            browser = debian_chromium(playwright)
            # The pages allow no eval (their Content-Security-Policy): Playwright's own waiting code needs it.
            page = browser.new_context(viewport={"width": 900, "height": 800}, bypass_csp=True).new_page()
            page.goto(server.link)
            check(page.url.rstrip("/") == server.origin, "the link lands on an address without the token")
            page.wait_for_selector("text=Trip")
            page.screenshot(path=os.path.join(shots, "albums.png"))
            print("screenshot: " + os.path.join(shots, "albums.png"))
            check(page.locator(".albums li").count() >= 1, "the albums page shows the albums")
            page.click("text=Trip")
            page.wait_for_selector(".cell img")
            page.screenshot(path=os.path.join(shots, "album.png"))
            print("screenshot: " + os.path.join(shots, "album.png"))
            check(page.locator(".cell").count() >= 3, "the album page shows its grid")
            page.locator(".cell").first.click()
            page.wait_for_selector(".photo dl")
            page.screenshot(path=os.path.join(shots, "photo.png"))
            print("screenshot: " + os.path.join(shots, "photo.png"))
            check(page.locator(".photo img").count() == 1 and "Camera" in page.inner_text(".photo dl"), "the photo page shows the photo and its details")
            page.wait_for_function("document.querySelector('.photo img').complete")
            check("/api/preview?asset=" in page.get_attribute(".photo img", "src")
                  and page.evaluate("document.querySelector('.photo img').naturalWidth") > 0
                  and page.get_attribute(".nav a[download]", "href").startswith("/api/original?asset="),
                  "the photo page shows the preview, and the original is the download link")
            page.click("a[rel=next]")
            page.wait_for_function("location.hash.endsWith('/1')")
            check(True, "next goes to the album's next photo")
            page.click(".nav >> text=Album")
            page.wait_for_selector("input[type=file]")

            page.set_input_files("input[type=file]", files)
            page.wait_for_function("[...document.querySelectorAll('.uploads li')].filter(li => / (saved|already in the library|not saved)/.test(li.textContent)).length === %d" % len(files), timeout=60000)
            page.screenshot(path=os.path.join(shots, "uploaded.png"))
            print("screenshot: " + os.path.join(shots, "uploaded.png"))
            results = page.locator(".uploads li").all_inner_texts()
            check(all(text.rstrip().endswith("saved") for text in results), "every file picked was saved: %s" % results)
            code, shown = album_show(album, library, "Trip")
            check(code == 0 and all(os.path.basename(path) in shown for path in files), "album show lists the photos and the video uploaded")
            page.wait_for_function("document.querySelectorAll('.cell img').length >= 9")
            check(True, "the grid shows the new photos without a reload")
            # Sorted by date taken: the control, the address that keeps it, the grid in that order.
            trip_id = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
            def served_names(order):
                _, _, body = server.request("GET", "/api/album-assets?album=%s&offset=0&limit=100&order=%s" % (quoted(trip_id), order))
                return [(a["name"], a["taken"] or a["added"]) for a in json.loads(body)["assets"]]
            by_taken, by_added = served_names("taken"), served_names("added")
            page.select_option("#order", "taken")
            page.wait_for_function("location.hash.endsWith('/taken')")
            # Until the grid is drawn again with its page in hand, its cells are the old order's or
            # placeholders named "item N": wait (at most 20 s) for the served order, then compare.
            try:
                page.wait_for_function("(names) => { const shown = [...document.querySelectorAll('.cell')].map((c) => c.getAttribute('aria-label'));"
                                       " return shown.length > 0 && shown.slice(0, names.length).every((label, i) => label === names[i]); }",
                                       arg=[name for name, _ in by_taken], timeout=20000)
            except Exception as error:
                print("the grid did not show the served order within 20 s: %s" % str(error).splitlines()[0], flush=True)
            shown = page.eval_on_selector_all(".cell", "cells => cells.map(c => c.getAttribute('aria-label'))")
            check(by_taken != by_added and [when for _, when in by_taken] == sorted(when for _, when in by_taken)
                  and [name for name, _ in by_taken][:len(shown)] == shown[:len(by_taken)],
                  "sorted by date taken, the grid shows the album in that order: %s" % shown)
            page.reload()
            page.wait_for_selector(".cell img")
            check(page.eval_on_selector("#order", "s => s.value") == "taken", "the address keeps the order across a reload")
            # (Not opened here: the video, first by date taken, is played with ranges further on.)
            check(page.locator(".cell").first.get_attribute("href").endswith("/0/taken"),
                  "a photo's address from the sorted grid keeps the order")
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(trip_id, safe=""))
            page.wait_for_selector("input[type=file]")
            # A photo picked with its sidecar, and a sidecar alone.
            with_sidecar = os.path.join(work, "rated.jpg")
            open(with_sidecar, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve browser sidecar %f" % time.time()))
            sidecar = os.path.join(work, "rated.jpg.xmp")
            open(sidecar, "w").write('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                                     '<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/></rdf:RDF></x:xmpmeta>')
            lone = os.path.join(work, "lonely.xmp")
            open(lone, "w").write("<x:xmpmeta/>")
            page.set_input_files("input[type=file]", [with_sidecar, sidecar, lone])
            page.wait_for_function("[...document.querySelectorAll('.uploads li')].some(li => /^rated.jpg .* (saved|not saved).*$/.test(li.textContent))", timeout=60000)
            texts = page.locator(".uploads li").all_inner_texts()
            check(any(t.startswith("rated.jpg + rated.jpg.xmp") and t.rstrip().endswith("saved with rated.jpg.xmp") for t in texts),
                  "a photo picked with its sidecar is saved with it: %s" % [t for t in texts if "rated" in t])
            check(any(t.startswith("lonely.xmp") and "saved with its photo" in t for t in texts),
                  "a sidecar picked alone gets its own result: %s" % [t for t in texts if "lonely" in t])
            listed = json.loads(subprocess.run([album, "assets", "--library", library, "--json", "--album", "Trip"], capture_output=True, text=True).stdout or "[]")
            entry = next((e for e in listed if (e.get("file") or "").endswith("rated.jpg")), {})
            check(any(c.get("file", "").endswith(".xmp") for c in entry.get("companions", [])),
                  "album assets lists the sidecar as the photo's companion")
            # Live: a photo saved by the CLI shows without reloading.
            from_cli = os.path.join(work, "from-cli.jpg")
            open(from_cli, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve from the CLI"))
            saved = subprocess.run([album, "save", "--library", library, "--album", "Trip", from_cli], capture_output=True, text=True)
            check(saved.returncode == 0, "the CLI saves into the album while the page is open")
            page.wait_for_function("document.querySelectorAll('.cell img').length >= 10", timeout=20000)
            check(True, "the photo saved by the CLI appears in the open page without a reload")
            # The video plays from the original, with range requests.
            trip = next(a for a in json.loads(server.request("GET", "/api/albums")[2])["albums"] if a["title"] == "Trip")
            listing = json.loads(server.request("GET", "/api/album-assets?album=%s&offset=0&limit=100" % urllib.parse.quote(trip["id"], safe=""))[2])
            index = next(i for i, a in enumerate(listing["assets"]) if a["name"] == "clip.mp4")
            ranges = []
            page.on("request", lambda r: ranges.append(r.headers.get("range")) if "/original" in r.url else None)
            page.goto(server.origin + "/#/asset/%s/%d" % (urllib.parse.quote(trip["id"]), index))
            page.wait_for_function("(() => { const v = document.querySelector('video'); return v && (v.readyState >= 1 || v.error); })()", timeout=20000)
            page.screenshot(path=os.path.join(shots, "video.png"))
            print("screenshot: " + os.path.join(shots, "video.png"))
            check(page.evaluate("document.querySelector('video').error === null"), "the video loads in the page's player")
            check(any(ranges), "the player asks for the video with a Range header (%s)" % ranges)
            status = page.evaluate("fetch('/api/albums').then(r => r.status)")
            check(status == 200, "the page's own requests carry the cookie")
            # A connection cut in the middle of a large upload: the page asks the server for the offset
            # and goes on from there, sending again at most the piece that was cut.
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(trip["id"], safe=""))
            page.wait_for_selector("input[type=file]")
            cut_and_resumed(page, album, library, work, corpus)
            outsider = browser.new_context().new_page()
            response = outsider.goto(server.origin + "/api/albums")
            check(response.status == 401, "a browser without the cookie is refused")
            browser.close()
    finally:
        server.stop()


def large_video(template, path, size, text):
    """Writes a valid QuickTime movie of exactly `size` bytes at `path`, its SHA-256 returned: the
    template's ftyp and wide boxes, its mdat grown with filler (the moov's chunk offsets point at the
    start of the mdat, which does not move), then its moov."""
    data = open(template, "rb").read()
    boxes, offset = {}, 0
    while offset < len(data):
        length, kind = int.from_bytes(data[offset:offset + 4], "big"), data[offset + 4:offset + 8].decode()
        boxes[kind] = (offset, offset + length)
        offset += length
    start, end = boxes["mdat"]
    moov = data[boxes["moov"][0]:boxes["moov"][1]]
    check(end == boxes["moov"][0] and end + len(moov) == len(data), "the template movie ends with its mdat and then its moov")
    if size - start - len(moov) < 1 << 32:
        head = data[:start] + (size - start - len(moov)).to_bytes(4, "big") + b"mdat" + data[start + 8:end]
    else:
        # Past 4 GiB a box's size takes 64 bits (size 1, then the size): the mdat stays as it is and
        # a `free` box that large follows it.
        head = data[:end] + (1).to_bytes(4, "big") + b"free" + (size - end - len(moov)).to_bytes(8, "big")
    block = (text.encode() * (8 << 20))[:8 << 20]
    digest = hashlib.sha256()
    with open(path, "wb") as out:
        def write(piece):
            out.write(piece)
            digest.update(piece)
        write(head)
        remaining = size - len(head) - len(moov)
        while remaining > 0:
            piece = block if remaining >= len(block) else block[:remaining]
            write(piece)
            remaining -= len(piece)
        write(moov)
    return digest.hexdigest()


def cut_and_resumed(page, album, library, work, corpus, size=1 << 30, title="Trip"):
    """On the album page open in `page` (of album `title`): a video of `size` bytes (1 GiB) picked,
    its connection cut at 60 % of its bytes
    (a Playwright route aborts the PATCH that carries that byte); the page asks where the upload
    stands and goes on. Saved, shown in the grid and by `album show`, with the file's SHA-256, and at
    most one piece sent again. Needs four times its size free (the file, the server's copy, the
    library's copy): skipped with a message when less is free, failed under CI=1. The file is removed
    afterwards."""
    needed, label = 4 * size, "%g GiB" % (size / (1 << 30))
    disk = os.statvfs(work)
    free = disk.f_bavail * disk.f_frsize
    if free < needed:
        message = "a %s upload cut at 60 %% and resumed needs %g GiB free in %s, only %.1f GiB are free" % (
            label, needed / (1 << 30), work, free / (1 << 30))
        if os.environ.get("CI") == "1":
            fail(message)
        print("skipped: " + message, flush=True)
        return
    movie = os.path.join(work, "long-take.mov")
    try:
        started = time.time()
        expected = large_video(os.path.join(corpus, "mov-gps.mov"), movie, size, "check-serve %s %f " % (label, time.time()))
        print("wrote the %s movie in %.1f s" % (label, time.time() - started), flush=True)
        at = int(size * 0.6)
        # What the page hands to each PATCH (counted in the page: cheap), what the server took (the
        # offsets it answers), and the one PATCH cut by a route put in place only around 60 % (a
        # route on every piece would make the upload three times slower).
        page.evaluate("""() => {
            window.patchesSent = [];
            const proto = XMLHttpRequest.prototype, open = proto.open, header = proto.setRequestHeader, send = proto.send;
            proto.open = function (method, ...rest) { this.method = method; return open.call(this, method, ...rest); };
            proto.setRequestHeader = function (name, value) {
                if (name === 'Upload-Offset') this.offset = Number(value);
                return header.call(this, name, value);
            };
            proto.send = function (body) {
                if (this.method === 'PATCH') window.patchesSent.push([this.offset, body ? body.size : 0]);
                return send.call(this, body);
            };
        }""")
        taken, failed, cut, asked = [], [], [], []

        def answered(response):
            if response.request.method == "HEAD":
                asked.append(int(response.headers.get("upload-offset", "-1")))
            if response.request.method == "PATCH":
                taken.append((int(response.request.headers["upload-offset"]), int(response.headers.get("upload-offset", "-1")), response.status))

        def dropped(request):
            if request.method == "PATCH":
                failed.append(int(request.headers["upload-offset"]))

        def patch(route):
            request = route.request
            if request.method == "PATCH" and not cut:
                offset, length = int(request.headers["upload-offset"]), len(request.post_data_buffer or b"")
                if offset <= at < offset + length:
                    cut.append((offset, length))
                    route.abort("connectionreset")
                    return
                if offset > at:
                    cut.append((-1, 0))
            route.continue_()

        page.on("response", answered)
        page.on("requestfailed", dropped)
        started = time.time()
        page.set_input_files("input[type=file]", [movie])
        page.wait_for_function("""(() => {
            const item = [...document.querySelectorAll('.uploads li')].find((li) => li.textContent.startsWith('long-take.mov'));
            const bar = item && item.querySelector('progress');
            return bar && bar.value >= 0.5;
        })()""", polling=100, timeout=600000)
        page.route("**/api/uploads/*", patch)
        while not cut and time.time() - started < 600:
            page.wait_for_timeout(100)
        page.unroute("**/api/uploads/*")
        check(cut and cut[0][0] >= 0, "the PATCH carrying byte %d (60 %%) is cut: %s" % (at, cut))
        page.wait_for_function("[...document.querySelectorAll('.uploads li')].some(li => /long-take.mov .* (saved|not saved.*)$/.test(li.textContent))", timeout=600000)
        took = time.time() - started
        # Playwright may tell of the last PATCH's answer after the page has shown the result: wait
        # (30 s at most: 10 s was once not enough on a busy machine, one answer of 129 untold)
        # until every PATCH sent and not cut is answered before counting.
        waited = time.time()
        while len(taken) + len(failed) < len(page.evaluate("window.patchesSent")) and time.time() - waited < 30:
            page.wait_for_timeout(50)
        page.remove_listener("response", answered)
        page.remove_listener("requestfailed", dropped)
        result = [text for text in page.locator(".uploads li").all_inner_texts() if "long-take.mov" in text]
        check(result and result[0].rstrip().endswith(" saved"),
              "a %s video cut at 60 %% resumes and is saved in %.1f s (%.0f MB/s): %s" % (label, took, size / took / 1e6, result))
        sent = page.evaluate("window.patchesSent")
        again = sum(length for _, length in sent) - size
        stored = sum(new - old for old, new, status in taken if status in (200, 204))
        offsets = [offset for offset, _ in sent]
        after = offsets[offsets.index(cut[0][0]) + 1:] if cut[0][0] in offsets else []
        print("upload of %d bytes in %d PATCHes: the one from byte %d (%d bytes) cut, the next from byte %s; %d bytes sent"
              " in all, %d sent again; the server took %d bytes (%d answers, %d failed requests), HEAD answered %s"
              % (size, len(sent), cut[0][0], cut[0][1], after[0] if after else "none", again + size, again, stored, len(taken), len(failed), asked), flush=True)
        check(failed == [cut[0][0]] and asked == [cut[0][0]] and after and after[0] == cut[0][0] and stored == size
              and 0 <= again <= cut[0][1] <= 8 << 20,
              "after the cut the page goes on from the server's offset: %d bytes sent again (at most one piece of 8 MiB)" % again)
        page.wait_for_function("[...document.querySelectorAll('.cell')].some(c => c.getAttribute('aria-label') === 'long-take.mov')", timeout=30000)
        code, shown = album_show(album, library, title)
        check(code == 0 and "long-take.mov" in shown, "the album shows the %s video (in the page's grid and in album show)" % label)
        check(expected in asset_sums(album, library, title), "the %s video is saved with the SHA-256 of the file" % label)
    finally:
        if os.path.exists(movie):
            os.remove(movie)


def share_browser_checks(album, library, state, work, shots):
    """Share links in Chromium: a guest opens the link and sees the album and nothing else; a
    view-only link shows no upload; an adding one saves through the file input; a revocation
    reaches a page already open; an expired link and a PIN (wrong, then right) in the page."""
    from playwright.sync_api import sync_playwright

    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    os.makedirs(shots, exist_ok=True)
    other = os.path.join(work, "other.jpg")
    open(other, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve share browser other"))
    subprocess.run([album, "save", "--library", library, "--album", "Other", other], capture_output=True, check=True)
    server = Server(album, library, state)

    def shot(page, name):
        page.screenshot(path=os.path.join(shots, name))
        print("screenshot: " + os.path.join(shots, name))

    try:
        albums = album_ids(server)
        trip, elsewhere = albums["Trip"], albums["Other"]
        outside = first_asset(server, elsewhere["id"])
        link_id, token = share_link(album, library, "Trip")
        with sync_playwright() as playwright:
            browser = debian_chromium(playwright)

            def guest_page():
                # A context of its own: the guest has no owner cookie. The pages allow no eval (their
                # Content-Security-Policy): Playwright's own waiting code needs it.
                return browser.new_context(viewport={"width": 900, "height": 800}, bypass_csp=True).new_page()

            page = guest_page()
            page.goto(server.origin + "/s/" + token)
            check(page.url.rstrip("/") == server.origin, "the share link lands on an address without its token")
            page.wait_for_selector(".cell img")
            shot(page, "guest-album.png")
            check(page.inner_text("h1") == "Trip" and page.locator(".cell").count() == trip["count"],
                  "the guest sees the album Trip and its %d items" % trip["count"])
            check(page.locator("input[type=file]").count() == 0, "a view-only link shows no upload")
            check(page.evaluate("fetch('/api/albums').then(r => r.status)") == 403, "the albums list is refused to the guest's page")
            check(page.evaluate("fetch('/api/album-assets?album=' + encodeURIComponent(%s)).then(r => r.status)" % json.dumps(elsewhere["id"])) == 404,
                  "another album is refused to the guest's page")
            check(page.evaluate("fetch('/api/original?asset=' + encodeURIComponent(%s)).then(r => r.status)" % json.dumps(outside)) == 404,
                  "another album's original is refused to the guest's page")
            status = page.evaluate("fetch('/api/uploads', {method: 'POST', headers: {'X-CSRF-Token': document.querySelector('meta[name=csrf]').content, 'X-Album-Title': 'Trip', 'Upload-Length': '10', 'Upload-Complete': '?0'}}).then(r => r.status)")
            check(status == 403, "an upload from a view-only guest's page is refused (%d)" % status)
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(elsewhere["id"], safe=""))
            page.wait_for_selector(".cell img")
            check(page.inner_text("h1") == "Trip", "an address of another album still shows only the link's album")
            page.locator(".cell").first.click()
            page.wait_for_selector(".photo dl")
            shot(page, "guest-photo.png")
            check(page.locator(".photo img").count() == 1, "the guest opens a photo of the album")
            # Revoked while the page is open: its requests fail at once, and the page shows why.
            page.goto(server.origin + "/")
            page.wait_for_selector(".cell img")
            unshare(album, library, link_id)
            check(page.evaluate("fetch('/api/album-assets?album=' + encodeURIComponent(%s)).then(r => r.status)" % json.dumps(trip["id"])) == 404,
                  "right after album unshare, the open page's requests are refused")
            page.wait_for_selector("#closed", timeout=20000)
            shot(page, "guest-revoked.png")
            check("revoked" in page.inner_text("#closed"), "the open page turns into the link's closed page")
            page.context.close()

            # A link that adds: the guest's upload is saved into the album.
            _, adding = share_link(album, library, "Trip", "--add")
            page = guest_page()
            page.goto(server.origin + "/s/" + adding)
            page.wait_for_selector("input[type=file]")
            upload = os.path.join(work, "guest-phone.jpg")
            open(upload, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve share browser guest %f" % time.time()))
            page.set_input_files("input[type=file]", [upload])
            page.wait_for_function("[...document.querySelectorAll('.uploads li')].some(li => / (saved|already in the library|not saved.*)$/.test(li.textContent))", timeout=60000)
            shot(page, "guest-uploaded.png")
            result = page.locator(".uploads li").all_inner_texts()
            check(result and result[0].rstrip().endswith(" saved"), "a guest of an adding link saves a photo from the page: %s" % result)
            check(hashlib.sha256(open(upload, "rb").read()).hexdigest() in asset_sums(album, library, "Trip"),
                  "the guest's photo is in the album, with its SHA-256")
            # Live: a photo the CLI saves into the album shows in the guest's open page without a
            # reload; one saved into another album sends the guest nothing (its own event stream,
            # read beside the page: the first event it gets names the link's album and nothing else).
            cells = page.locator(".cell img").count()
            page.evaluate("window.notReloaded = true")
            guest = Guest(server, adding)
            guest.open()
            stream = GuestEvents(server, guest.cookie)
            elsewhere_photo = os.path.join(work, "guest-elsewhere.jpg")
            open(elsewhere_photo, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve guest elsewhere %f" % time.time()))
            subprocess.run([album, "save", "--library", library, "--album", "Other", elsewhere_photo], capture_output=True, check=True)
            quiet = stream.next_event(seconds=4)
            check(quiet is None, "a save into another album sends the guest's event stream nothing (got %r)" % quiet)
            from_cli = os.path.join(work, "guest-live.jpg")
            open(from_cli, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "check-serve guest live %f" % time.time()))
            subprocess.run([album, "save", "--library", library, "--album", "Trip", from_cli], capture_output=True, check=True)
            heard = stream.next_event(seconds=30)
            check(heard == {"albums": [trip["id"]]}, "a save into the link's album is one event naming that album only (%r)" % heard)
            stream.close()
            page.wait_for_function("document.querySelectorAll('.cell img').length > %d" % cells, timeout=20000)
            check(page.evaluate("window.notReloaded === true"), "a photo the CLI saves into the album appears in the guest's open page, without a reload")
            page.context.close()

            # Expired.
            _, soon = share_link(album, library, "Trip", "--expires", "1s")
            time.sleep(1.5)
            page = guest_page()
            page.goto(server.origin + "/s/" + soon)
            check("expired" in page.inner_text("#closed"), "an expired link's page says it expired")
            page.context.close()

            # A PIN: wrong, then right.
            _, guarded = share_link(album, library, "Trip", "--pin", pin="2468\n")
            page = guest_page()
            page.goto(server.origin + "/s/" + guarded)
            page.fill("#pin", "1111")
            page.click("button[type=submit]")
            page.wait_for_selector("#wrong")
            shot(page, "guest-pin.png")
            check("4 tries left" in page.inner_text("#wrong"), "a wrong PIN in the page says how many tries are left")
            page.fill("#pin", "2468")
            page.click("button[type=submit]")
            page.wait_for_selector(".cell img")
            check(page.inner_text("h1") == "Trip", "the right PIN opens the album")
            page.context.close()
            browser.close()
    finally:
        server.stop()


def links_file(library):
    """Where a catalog or folder library keeps its share links."""
    if os.path.isdir(os.path.join(library, "journal")):
        return os.path.join(library, "shares", "links.json")
    return os.path.join(library, ".albumkit", "shares", "links.json")


def failed_pins(library, link_id):
    """The wrong PINs the library counted for a link: its links file, or a shared library's table
    (through psql); None when it cannot be read."""
    if library.startswith("postgres"):
        run = subprocess.run(["psql", library, "-Atc", "SELECT failed_pins FROM share_link WHERE id = '%s'" % link_id],
                             capture_output=True, text=True)
        return int(run.stdout.strip()) if run.returncode == 0 and run.stdout.strip().isdigit() else None
    kept = [entry for entry in json.load(open(links_file(library)))["links"] if entry["id"] == link_id]
    return kept[0].get("failed", 0) if kept else None


def forge_checks(album, library, state, work, trials):
    """The reliability harness's serveshare: share links attacked. Guessed and forged tokens, a
    link of another library copied into this one's links file, forged records (an album that is
    a path, a token hash that is not one), a revoked link, traversal through /s/, and the links file
    replaced by a link to a file outside: nothing outside the link's album is ever served, and no
    file outside the library is changed. Prints `serveshare trials=N failures=M`."""
    import random
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    kind = "--catalog" if library.endswith(".albumlibrary") else "--folders"
    other_library = os.path.join(work, "Other.albumlibrary" if kind == "--catalog" else "OtherPictures")
    for title, target in (("Private", library), ("Elsewhere", other_library)):
        photo = os.path.join(work, title + ".jpg")
        open(photo, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "serveshare %s %f" % (title, time.time())))
        subprocess.run([album, "save", "--library", target, kind, "--album", title, photo], capture_output=True, check=True)
    failures = 0
    server = Server(album, library, state)
    try:
        albums = album_ids(server)
        trip, private = albums["Trip"], albums["Private"]
        secret = first_asset(server, private["id"])
        inside = first_asset(server, trip["id"])
        link_id, token = share_link(album, library, "Trip")
        _, foreign = share_link(album, other_library, "Elsewhere")
        guest = Guest(server, token)
        guest.open()

        def outside_served(who):
            """The requests that must never give a guest anything outside the album; those that did."""
            leaks = []
            for path in ("/api/albums", "/api/album-assets?album=%s" % quoted(private["id"]),
                         "/api/cover?album=%s" % quoted(private["id"]), "/api/original?asset=%s" % quoted(secret),
                         "/api/thumbnail?asset=%s" % quoted(secret), "/api/preview?asset=%s" % quoted(secret),
                         "/api/original?asset=%s" % quoted("/etc/passwd"),
                         "/?token=" + "0" * 64):
                status, _, body = who.request("GET", path)
                # (An error may name what was asked: only an answer that is not one counts.)
                if status < 400:
                    leaks.append("%s: %d" % (path[:60], status))
            return leaks

        leaks = outside_served(guest)
        if leaks:
            failures += 1
            print("a guest reached outside the album: %s" % leaks, flush=True)
        # Guessed tokens, forged cookies, the other library's token, traversal through /s/.
        for trial in range(trials):
            guessed = "%064x" % random.getrandbits(256)
            for candidate in (guessed, foreign, token[:63] + "x", token + "0", token.upper()):
                status, _, body = server.request("GET", "/s/" + candidate, owner=False)
                forged = Guest(server, candidate)
                forged.cookie = "albumkit_guest=" + candidate + "." + hashlib.sha256(candidate.encode()).hexdigest()
                listed = forged.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
                if status != 404 or listed[0] < 400 or inside.encode() in listed[2]:
                    failures += 1
                    print("the token %s… opened something (%d, %d)" % (candidate[:12], status, listed[0]), flush=True)
            for path in ("/s/../api/albums", "/s/%s/../../api/albums" % token, "/s/%2e%2e/api/albums",
                         "/s/%s/%%2e%%2e/api/original?asset=%s" % (token, quoted(secret)), "/s//etc/passwd",
                         "/s/%s%%00/../api/albums" % token, "/s/..%%5c..%%5capi%%5calbums"):
                status = server.raw(("GET %s HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n\r\n" % (path, guest.cookie)).encode())
                # A NUL ends the path where libmicrohttpd decodes it: `/s/TOKEN%00/…` is the link's
                # own address (303 to the album, what the token opens anyway); nothing may answer 2xx.
                if status is None or 200 <= status < 300:
                    failures += 1
                    print("traversal %s answered %s" % (path, status), flush=True)
        # Wrong PINs sent at once, as a guesser would: the library checks five and the link locks;
        # the rest are not checked (the count it keeps says how many were).
        for trial in range(trials):
            pin = "%04d" % random.randrange(10000)
            guarded_id, guarded = share_link(album, library, "Trip", "--pin", pin=pin + "\n")
            guesses = random.sample([other for other in ("%04d" % n for n in range(10000)) if other != pin], 6 + trial % 6)
            opened = []
            threads = [threading.Thread(target=lambda guess=guess: opened.append(Guest(server, guarded).open(pin=guess)[0]))
                       for guess in guesses]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            checked = failed_pins(library, guarded_id)
            if checked != 5 or opened != [403] * len(guesses):
                failures += 1
                print("%d wrong PINs at once: %s checked (5 allowed), answered %s" % (len(guesses), checked, opened), flush=True)
        # Slow clients without any token: 32 connections from each of two addresses (all the server
        # allows) sending their headers a byte a second. They are shut down once they have waited
        # 30 s for their request to begin, and a third address is answered while they still send.
        slow, sending = [], [True]
        for address in ("127.0.0.2", "127.0.0.3"):
            for _ in range(32):
                sock = socket.socket()
                sock.bind((address, 0))
                sock.connect((server.host, server.port))
                sock.sendall(b"GET /app.css HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                slow.append(sock)

        def trickle():
            for _ in range(90):
                if not sending[0]:
                    break
                for sock in list(slow):
                    try:
                        sock.sendall(b"a")
                    except OSError:
                        slow.remove(sock)
                time.sleep(1)

        trickling = threading.Thread(target=trickle)
        trickling.start()
        answered, deadline = None, time.time() + 75
        while answered is None and time.time() < deadline:
            try:
                connection = http.client.HTTPConnection(server.host, server.port, timeout=5, source_address=("127.0.0.4", 0))
                connection.request("GET", "/app.css")
                answered = connection.getresponse().status
                connection.close()
            except OSError:
                time.sleep(1)
        still = trickling.is_alive()
        sending[0] = False
        trickling.join()
        for sock in slow:
            sock.close()
        if answered != 200 or not still:
            failures += 1
            print("64 slow clients: another address answered %s, while they still sent: %s" % (answered, still), flush=True)
        # The other library's link record copied into this library's file: its token opens the
        # record, whose album is not this library's, so nothing is served.
        ours, theirs = json.load(open(links_file(library))), json.load(open(links_file(other_library)))
        ours["links"] += theirs["links"]
        # Forged records: an album that is a path, a token hash that is no SHA-256, an id with a slash.
        forged_hash = hashlib.sha256(b"forged").hexdigest()
        ours["links"] += [
            {"id": "00000000aa", "album": "../../../etc", "rights": "add", "created": 1, "token": hashlib.sha256(("a" * 64).encode()).hexdigest()},
            {"id": "00000000bb", "album": trip["id"], "rights": "add", "created": 1, "token": "not-a-hash"},
            {"id": "../../x", "album": trip["id"], "rights": "add", "created": 1, "token": forged_hash},
        ]
        json.dump(ours, open(links_file(library), "w"))
        copied = Guest(server, foreign)
        status, _, _ = copied.open()
        leaks = outside_served(copied) if copied.cookie else []
        listed = copied.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        if leaks or listed[0] < 400:
            failures += 1
            print("a link copied from another library reached %s / %d" % (leaks, listed[0]), flush=True)
        pathlike = Guest(server, "a" * 64)
        pathlike.open()
        if pathlike.cookie:
            for path in ("/api/album-assets?album=%s" % quoted("../../../etc"), "/api/original?asset=%s" % quoted("/etc/passwd")):
                status, _, _ = pathlike.request("GET", path)
                if status < 400:
                    failures += 1
                    print("a forged record whose album is a path served %s (%d)" % (path, status), flush=True)
        # Revoked: refused at once, everywhere.
        unshare(album, library, link_id)
        for path in ("/", "/api/album-assets?album=%s" % quoted(trip["id"]), "/api/original?asset=%s" % quoted(inside)):
            status, _, _ = guest.request("GET", path)
            if status != 404:
                failures += 1
                print("the revoked link still answered %s (%d)" % (path, status), flush=True)
        # The links file replaced by a link to a file outside the library: nothing opens, and the
        # next `album share` sets the link aside without touching the file it points to.
        victim = os.path.join(work, "victim.txt")
        open(victim, "w").write("not AlbumKit's\n")
        os.remove(links_file(library))
        os.symlink(victim, links_file(library))
        _, later = share_link(album, library, "Trip")
        if open(victim).read() != "not AlbumKit's\n" or os.path.islink(links_file(library)):
            failures += 1
            print("the links file that was a link: the file outside changed, or the link stayed", flush=True)
        fresh = Guest(server, later)
        status, _, _ = fresh.open()
        listed = fresh.request("GET", "/api/album-assets?album=%s" % quoted(trip["id"]))
        if status != 303 or listed[0] != 200:
            failures += 1
            print("after setting aside the hostile links file, a new link does not open (%d, %d)" % (status, listed[0]), flush=True)
        verify = subprocess.run([album, "verify", "--library", library], capture_output=True, text=True)
        if verify.returncode != 0:
            failures += 1
            print("album verify: " + (verify.stdout + verify.stderr)[:300], flush=True)
    finally:
        server.stop()
    print("serveshare trials=%d failures=%d" % (trials, failures), flush=True)
    if failures:
        sys.exit(1)


def tls_checks(album, library, state, work, openssl):
    """`--tls-cert` and `--tls-key`: HTTPS with a certificate made here, the cookie marked Secure."""
    key, certificate = os.path.join(work, "key.pem"), os.path.join(work, "cert.pem")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-days", "2", "-subj", "/CN=localhost"], check=True, capture_output=True)
    server = Server(album, library, state, ["--tls-cert", certificate, "--tls-key", key])
    try:
        check(server.link.startswith("https://"), "album serve prints an https:// link")
        status, headers, _ = server.request("GET", "/?token=" + server.token, owner=False)
        check(status == 303 and "Secure" in headers.get("set-cookie", ""), "over HTTPS the cookie is marked Secure")
        status, _, body = server.request("GET", "/api/albums")
        check(status == 200 and json.loads(body)["albums"], "the albums are served over HTTPS")
        try:
            plain = http.client.HTTPConnection(server.host, server.port, timeout=10)
            plain.request("GET", "/api/albums", headers={"Cookie": server.cookie})
            answered = plain.getresponse().status == 200
        except (http.client.HTTPException, OSError):
            answered = False
        check(not answered, "plain HTTP to the HTTPS port gets no albums")
    finally:
        server.stop()
    mismatched = subprocess.run([album, "serve", "--library", library, "--listen", "127.0.0.1:0", "--tls-cert", key,
                                 "--tls-key", certificate], capture_output=True, text=True, timeout=30,
                                env=dict(os.environ, XDG_STATE_HOME=state, HOME=state))
    check(mismatched.returncode != 0 and "certificate" in mismatched.stderr,
          "a key given as the certificate is refused with a message: %s" % mismatched.stderr.strip()[:200])


def two_servers(album, library, work):
    """Two servers (their own state: other tokens, other upload folders, as on two machines) over one
    shared library: each serves the albums the other saves into, and uploads through both at once
    into one new album make one album holding every photo."""
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    servers = [Server(album, library, os.path.join(work, "machine-%d" % index)) for index in range(2)]
    try:
        check(servers[0].token != servers[1].token, "each machine has its own token")
        photos = [[unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "two servers %d %d" % (s, i)) for i in range(6)]
                  for s in range(2)]
        results = [[], []]

        def upload(index):
            for number, photo in enumerate(photos[index]):
                status, _, body = servers[index].request("POST", "/api/uploads", body=photo, headers={
                    "X-Album-Title": "Both", "X-File-Name": "s%d-%d.jpg" % (index, number),
                    "Upload-Length": str(len(photo)), "Upload-Complete": "?1"})
                results[index].append((status, json.loads(body).get("result")))

        threads = [threading.Thread(target=upload, args=(index,)) for index in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        check(all(result == (200, "saved") for result in results[0] + results[1]), "uploads through both servers are saved: %s" % results)
        for server in servers:
            _, _, body = server.request("GET", "/api/albums")
            both = [a for a in json.loads(body)["albums"] if a["title"] == "Both"]
            check(len(both) == 1 and both[0]["count"] == 12, "each server sees one album Both of 12 photos: %s" % both)
        sums = asset_sums(album, library, "Both")
        check(sums == {hashlib.sha256(photo).hexdigest() for photo in photos[0] + photos[1]}, "the album holds every photo, by SHA-256")
        # A share link made by the CLI opens on both servers (it lives in the library), and its
        # revocation reaches both at once.
        link_id, token = share_link(album, library, "Both", "--add")
        both = album_ids(servers[0])["Both"]
        guests = [Guest(server, token) for server in servers]
        for index, guest in enumerate(guests):
            status, _, _ = guest.open()
            listed = guest.request("GET", "/api/album-assets?album=%s&offset=0&limit=100" % quoted(both["id"]))
            check(status == 303 and listed[0] == 200 and len(json.loads(listed[2])["assets"]) == 12,
                  "server %d honours the share link the CLI made" % index)
        photo = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "two servers guest %f" % time.time())
        status, _, body = guests[1].request("POST", "/api/uploads", body=photo, headers={
            "X-Album-Title": "Trip", "X-File-Name": "guest.jpg", "Upload-Length": str(len(photo)), "Upload-Complete": "?1"})
        check(status == 200 and hashlib.sha256(photo).hexdigest() in asset_sums(album, library, "Both"),
              "a guest's upload through the second server lands in the link's album")
        status, _, _ = guests[0].request("GET", "/api/albums")
        check(status == 403, "the guest cannot list the albums on either server")
        unshare(album, library, link_id)
        for index, guest in enumerate(guests):
            status, _, _ = guest.request("GET", "/api/album-assets?album=%s" % quoted(both["id"]))
            check(status == 404, "after album unshare, server %d refuses the guest at once" % index)
    finally:
        for server in servers:
            server.stop()


def asset_sums(album, library, title):
    """The SHA-256 of every asset of album `title` (a folder library's files hashed here)."""
    run = subprocess.run([album, "assets", "--library", library, "--json", "--album", title], capture_output=True, text=True)
    if run.returncode != 0:
        return set()
    return {entry.get("sha256") or hashlib.sha256(open(entry["path"], "rb").read()).hexdigest() for entry in json.loads(run.stdout)}


def kill_trials(album, library, state, work, trials):
    """SIGKILL of the server at random moments of uploads (while bytes arrive, while the last piece is
    saved): after each, `album verify` passes, every acknowledged upload is in the album with its
    SHA-256, and the upload cut is either whole in the album or not there at all."""
    import random
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    acknowledged = set()
    failures = 0
    for trial in range(trials):
        server = Server(album, library, state)
        for index in range(2):
            photo = unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "servekill %d %d %f" % (trial, index, time.time()))
            status, _, body = server.request("POST", "/api/uploads", body=photo, headers={
                "X-Album-Title": "Kill", "X-File-Name": "ack-%d-%d.jpg" % (trial, index), "Upload-Length": str(len(photo)), "Upload-Complete": "?1"})
            if status == 200 and json.loads(body)["result"] == "saved":
                acknowledged.add(hashlib.sha256(photo).hexdigest())
        big = large_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), random.choice([1, 4, 12]), "servekill big %d %f" % (trial, time.time()))
        sock = socket.create_connection((server.host, server.port), timeout=30)
        sock.sendall(("POST /api/uploads HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nX-CSRF-Token: %s\r\nX-Album-Title: Kill\r\n"
                      "X-File-Name: cut-%d.jpg\r\nUpload-Length: %d\r\nUpload-Complete: ?1\r\nContent-Length: %d\r\n\r\n"
                      % (server.cookie, server.csrf, trial, len(big), len(big))).encode())
        sent = random.randint(0, len(big))
        sock.sendall(big[:sent])
        if sent == len(big):
            time.sleep(random.random() * 0.05)  # into the save itself
        server.kill()
        sock.close()
        verify = subprocess.run([album, "verify", "--library", library], capture_output=True, text=True)
        sums = asset_sums(album, library, "Kill")
        problems = []
        if verify.returncode != 0:
            problems.append("album verify: " + (verify.stdout + verify.stderr)[:300])
        missing = acknowledged - sums
        if missing:
            problems.append("%d acknowledged uploads missing" % len(missing))
        extra = sums - acknowledged - {hashlib.sha256(big).hexdigest()}
        if extra:
            problems.append("assets that are no upload whole: %d" % len(extra))
        if hashlib.sha256(big).hexdigest() in sums:
            acknowledged.add(hashlib.sha256(big).hexdigest())
        if problems:
            failures += 1
            print("trial %d (killed after %d of %d bytes): %s" % (trial, sent, len(big), "; ".join(problems)), flush=True)
    print("kill trials=%d failures=%d acknowledged=%d" % (trials, failures, len(acknowledged)), flush=True)
    if failures:
        sys.exit(1)


def forged_thumbnail_checks(album, library, state, work, trials):
    """The reliability harness's servethumb: a running server's kept thumbnail (a catalog's
    `derivatives/256/`, a folder library's entry in the desktop's cache under the server's HOME)
    forged after the server read it back whole: cut short, turned into text, zeroed after its header,
    replaced by a link to a file outside. The server remembers which bytes decoded (it does not
    decode them again), so every forged file must still be decoded and refused: each answer is the
    thumbnail served before, never the forged bytes, a forged file is made again (a link is left
    alone, never followed), the file outside is untouched, verify passes. Prints
    `servethumb trials=N failures=M`."""
    import glob
    # The folder library's thumbnails go to the desktop's cache under the server's HOME (the state folder).
    os.environ.pop("XDG_CACHE_HOME", None)
    server = Server(album, library, state)
    failures = 0
    outside = os.path.join(work, "outside.jpg")
    try:
        asset = first_asset(server, album_ids(server)["Trip"]["id"])
        path = "/api/thumbnail?asset=%s" % quoted(asset)
        status, headers, served = server.request("GET", path)
        check(status == 200 and headers.get("content-type") in ("image/jpeg", "image/png"), "the thumbnail is served (%d)" % status)
        status, _, again = server.request("GET", path)
        check(status == 200 and again == served, "read back, the same thumbnail")
        kept = glob.glob(os.path.join(library, "derivatives/256/*/*.jpg")) + glob.glob(os.path.join(state, ".cache/thumbnails/large/*.png"))
        check(len(kept) == 1, "the thumbnail is kept once (%s)" % kept)
        kept = kept[0]
        open(outside, "wb").write(served)
        outside_sum = hashlib.sha256(served).hexdigest()
        forgeries = [("cut short", lambda good: good[: len(good) // 2]), ("text", lambda good: b"not a picture\n" * 40),
                     ("zeros after its header", lambda good: good[: len(good) // 5] + bytes(len(good) - len(good) // 5)),
                     ("a link outside", None)]
        for trial in range(trials):
            what, forge = forgeries[trial % len(forgeries)]
            good = open(kept, "rb").read()
            os.chmod(kept, 0o600)
            os.remove(kept)
            if forge is None:
                os.symlink(outside, kept)
            else:
                open(kept, "wb").write(forge(good))
            status, _, body = server.request("GET", path)
            problems = []
            if status != 200 or body != served:
                problems.append("answered %d with %d bytes, not the thumbnail served before" % (status, len(body)))
            if forge is not None and body == forge(good) and body != served:
                problems.append("the forged bytes were served")
            if hashlib.sha256(open(outside, "rb").read()).hexdigest() != outside_sum:
                problems.append("the file outside changed")
            # A link is never followed nor its target written; it is left where it is (the gate
            # removes only what the library made), so the thumbnail is made on each request.
            if forge is not None and (os.path.islink(kept) or open(kept, "rb").read() != served):
                problems.append("the kept file was not made again")
            if forge is None:
                os.remove(kept)
                open(kept, "wb").write(served)
            if problems:
                failures += 1
                print("trial %d (%s): %s" % (trial, what, "; ".join(problems)), flush=True)
            else:
                print("ok: trial %d: a kept thumbnail forged into %s is made again" % (trial, what), flush=True)
    finally:
        server.stop()
    verified = subprocess.run([album, "verify", "--library", library], capture_output=True, text=True)
    check(verified.returncode == 0, "verify passes: %s" % verified.stdout[-300:])
    print("servethumb trials=%d failures=%d" % (trials, failures), flush=True)
    if failures:
        sys.exit(1)


def staged(state):
    """The uploads the server holds in progress (its state folder's uploads/LIBRARY/ID folders)."""
    import glob
    return glob.glob(os.path.join(state, "albumkit/serve/uploads/*/*"))


def until_nothing_staged(state, seconds=10):
    """Waits (at most `seconds`) for the server to forget every upload in progress; what is left."""
    deadline = time.time() + seconds
    while staged(state) and time.time() < deadline:
        time.sleep(0.05)
    return staged(state)


def cut_creation(server, body, sent, reset=False):
    """A one-request upload (`Upload-Complete: ?1`) whose connection is closed, or reset when `reset`,
    after `sent` bytes of `body`; the status if the server answered before the cut, else None."""
    sock = socket.create_connection((server.host, server.port), timeout=30)
    try:
        sock.sendall(("POST /api/uploads HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nX-CSRF-Token: %s\r\nX-Album-Title: Cut\r\n"
                      "X-File-Name: cut.jpg\r\nUpload-Length: %d\r\nUpload-Complete: ?1\r\nContent-Length: %d\r\n\r\n"
                      % (server.cookie, server.csrf, len(body), len(body))).encode() + body[:sent])
        if sent == len(body) and not reset:
            # Wholly sent: the server may save it before it sees the connection close.
            time.sleep(0.01)
    finally:
        if reset:
            import struct
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


def album_sum_counts(album, library, title):
    """How many assets of album `title` have each SHA-256 (a folder library's files hashed here)."""
    run = subprocess.run([album, "assets", "--library", library, "--json", "--album", title], capture_output=True, text=True)
    counts = {}
    for entry in json.loads(run.stdout) if run.returncode == 0 else []:
        digest = entry.get("sha256") or hashlib.sha256(open(entry["path"], "rb").read()).hexdigest()
        counts[digest] = counts.get(digest, 0) + 1
    return counts


def upload_request_checks(album, library, state, work):
    """The album page uploads a photo of one piece in one request (`Upload-Complete: ?1`); a request
    cut before it reached the server, and one cut after the server saved it, go again the resumable
    way and are each in the album once; the open grid asks for the album at most once a second
    while 30 photos arrive, and shows the last of them; a creation cut before its answer leaves
    nothing staged on the server."""
    from playwright.sync_api import sync_playwright

    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    files, sums, data = [], {}, {}
    for index in range(30):
        name = "cut-before.jpg" if index == 7 else "cut-after.jpg" if index == 19 else "one-%02d.jpg" % index
        path = os.path.join(work, name)
        data[name] = unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve one request %d %f" % (index, time.time()))
        open(path, "wb").write(data[name])
        files.append(path)
        sums[name] = hashlib.sha256(data[name]).hexdigest()
    server = Server(album, library, state)
    try:
        with sync_playwright() as playwright:
            browser = debian_chromium(playwright)
            page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
            # Every time the page asks for the album (what the grid shows), in the page's own clock.
            page.add_init_script("""(() => {
                window.albumAsked = [];
                const fetched = window.fetch;
                window.fetch = function (resource, ...rest) {
                    if (String(resource).startsWith('/api/album-assets') && String(resource).includes('offset=0&')) window.albumAsked.push(performance.now());
                    return fetched.call(this, resource, ...rest);
                };
            })()""")
            page.goto(server.link)
            trip = album_ids(server)["Trip"]
            page.goto(server.origin + "/#/album/" + quoted(trip["id"]))
            page.wait_for_selector(".cell img")
            requests, cuts, saved_before = [], [], []
            page.on("request", lambda r: requests.append((r.method, r.headers.get("x-file-name"))) if "/api/uploads" in r.url else None)

            def cutting(route):
                request = route.request
                name = request.headers.get("x-file-name")
                if request.method == "POST" and request.headers.get("upload-complete") == "?1" and name in ("cut-before.jpg", "cut-after.jpg") \
                        and name not in cuts:
                    cuts.append(name)
                    if name == "cut-after.jpg":
                        # The server receives it whole and saves it; its answer is lost. (Playwright
                        # does not hold a File's bytes: they are given again.)
                        answered = route.fetch(post_data=data[name])
                        saved_before.append((answered.status, answered.json().get("result")))
                    route.abort("connectionreset")
                    return
                route.continue_()

            page.route("**/api/uploads*", cutting)
            page.evaluate("window.albumAsked = []")
            page.set_input_files("input[type=file]", files)
            page.wait_for_function("[...document.querySelectorAll('.uploads li')].filter(li => / (saved|already in the library|not saved.*)$/.test(li.textContent)).length === %d" % len(files), timeout=120000)
            results = {text.split(" ")[0]: text for text in page.locator(".uploads li").all_inner_texts()}
            by_name = {}
            for method, name in requests:
                by_name.setdefault(name, []).append(method)
            plain = {name: methods for name, methods in by_name.items() if name and not name.startswith("cut-")}
            check(len(plain) == 28 and all(methods == ["POST"] for methods in plain.values()) and len(requests) == 34,
                  "each photo not cut is one POST (%d requests to /api/uploads: 30 POSTs, 2 cut photos created again and"
                  " sent in a PATCH each): %s" % (len(requests), {n: m for n, m in by_name.items() if m != ["POST"]}))
            check(cuts == ["cut-before.jpg", "cut-after.jpg"] or cuts == ["cut-after.jpg", "cut-before.jpg"], "both cut requests were cut: %s" % cuts)
            check(all(text.rstrip().endswith(" saved") for name, text in results.items() if name != "cut-after.jpg"),
                  "every photo is saved: %s" % sorted(results.values()))
            check(saved_before == [(200, "saved")] and results["cut-after.jpg"].rstrip().endswith(" already in the library"),
                  "the photo saved before its answer was cut (%s) is already in the library when sent again: %s" % (saved_before, results["cut-after.jpg"]))
            check(by_name.get("cut-before.jpg") == ["POST", "POST"] and by_name.get("cut-after.jpg") == ["POST", "POST"]
                  and by_name.get(None) == ["PATCH", "PATCH"],
                  "a cut photo is created again the resumable way and sent in one PATCH: %s" % {n: by_name.get(n) for n in ("cut-before.jpg", "cut-after.jpg", None)})
            counts = album_sum_counts(album, library, "Trip")
            check(all(counts.get(digest) == 1 for digest in sums.values()),
                  "each photo is in the album once, with its SHA-256: %s" % {n: counts.get(d) for n, d in sums.items() if counts.get(d) != 1})
            page.wait_for_function("document.querySelector('.tools .muted').textContent === '33 items'", timeout=10000)
            check(True, "the grid shows the album with the last photo saved")
            asked = page.evaluate("window.albumAsked")
            gaps = [round(b - a) for a, b in zip(asked, asked[1:])]
            check(asked and min(gaps or [1000]) >= 950,
                  "the grid asked for the album %d times during the upload, at least a second apart: gaps %s ms" % (len(asked), gaps))
            check(not until_nothing_staged(state), "nothing is left staged after the uploads: %s" % staged(state))
            browser.close()
        photo = unique_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), "check-serve cut creation %f" % time.time())
        cut_creation(server, photo, len(photo) // 2)
        left = until_nothing_staged(state)
        check(not left, "a creation cut before its answer leaves nothing staged: %s" % left)
        check(hashlib.sha256(photo).hexdigest() not in album_sum_counts(album, library, "Cut"), "and nothing of it is saved")
    finally:
        server.stop()


def grid_task_checks(album, library, state, work):
    """The album grid gives the first screen's cells their thumbnails' addresses in one task, and
    scrolled at most 8 in one task (observed with a MutationObserver: its records are delivered at
    the end of each task); every cell on screen gets its thumbnail, drawn, also with the page's own
    Content-Security-Policy in force (its thumbnails are data: addresses)."""
    import glob
    from playwright.sync_api import sync_playwright

    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    folder = os.path.join(work, "grid")
    os.makedirs(folder, exist_ok=True)
    for index in range(150):
        open(os.path.join(folder, "IMG_%04d.jpg" % index), "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-thumbnail.jpg"), "grid task %d" % index))
    run = subprocess.run([album, "save", "--library", library, "--album", "Trip"] + sorted(glob.glob(os.path.join(folder, "*.jpg"))),
                         capture_output=True, text=True)
    check(run.returncode == 0, "150 photos saved into Trip: %s" % run.stderr[-300:])
    server = Server(album, library, state)
    try:
        with sync_playwright() as playwright:
            browser = debian_chromium(playwright)
            page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
            page.add_init_script("""(() => {
                window.addressed = [];
                new MutationObserver((records) => {
                    const images = new Set();
                    for (const record of records) {
                        if (record.type === 'attributes' && record.target.tagName === 'IMG') images.add(record.target);
                        for (const node of record.addedNodes) {
                            if (node.nodeType !== 1) continue;
                            if (node.tagName === 'IMG') images.add(node);
                            for (const image of node.querySelectorAll('img')) images.add(image);
                        }
                    }
                    if (images.size) window.addressed.push(images.size);
                }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
            })()""")
            page.goto(server.link)
            trip = album_ids(server)["Trip"]
            page.evaluate("window.addressed = []")  # the albums page's cover
            page.goto(server.origin + "/#/album/" + quoted(trip["id"]))
            loaded = LOADED_CELLS
            page.wait_for_function(loaded, timeout=30000)
            first = page.evaluate("window.addressed")
            cells = page.evaluate("document.querySelectorAll('.cell img').length")
            check(cells >= 40, "the first screen shows %d thumbnails" % cells)
            drawn = "[...document.querySelectorAll('.cell img')].filter(i => i.naturalWidth > 0).length"
            check(page.evaluate(drawn) == cells, "each of them is drawn: %d of %d" % (page.evaluate(drawn), cells))
            check(first == [cells], "one task gives the first screen's %d thumbnails their addresses: %s" % (cells, first))
            page.evaluate("window.addressed = []")
            for fraction in (0.5, 1.0, 0.2):
                page.evaluate("(f) => { const s = document.querySelector('.scroller'); s.scrollTop = f * (s.scrollHeight - s.clientHeight); }", fraction)
                page.wait_for_timeout(300)
                page.wait_for_function(loaded, timeout=30000)
                check(page.evaluate(drawn) == page.evaluate("document.querySelectorAll('.cell img').length"),
                      "scrolled to %d %%, every thumbnail on screen is drawn" % (fraction * 100))
            scrolled = page.evaluate("window.addressed")
            check(scrolled and max(scrolled) <= 8, "no task while scrolling gives more than 8 thumbnails their address: %s" % scrolled)
            # The page's own policy in force (Playwright's waits are then asked from here, not evaluated in the page).
            page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
            page.goto(server.link)
            page.goto(server.origin + "/#/album/" + quoted(trip["id"]))
            deadline = time.time() + 30
            while not page.evaluate(loaded) and time.time() < deadline:
                time.sleep(0.1)
            check(page.evaluate(drawn) >= 40, "with the page's Content-Security-Policy in force, the first screen's thumbnails are drawn: %d"
                  % page.evaluate(drawn))
            browser.close()
    finally:
        server.stop()


def grid_refresh_checks(album, library, state, work):
    """The open album's grid after a save by the CLI: when its request for the album fails (the
    server answers 503 once), it is asked again and the new photo shows; when the page leaves the
    album while that request is on its way (and another save was heard meanwhile), nothing more is
    asked for the album it left."""
    from playwright.sync_api import sync_playwright

    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")

    def cli_save(name):
        path = os.path.join(work, name)
        open(path, "wb").write(unique_jpeg(os.path.join(corpus, "jpeg-thumbnail.jpg"), "grid refresh %s %f" % (name, time.time())))
        run = subprocess.run([album, "save", "--library", library, "--album", "Trip", path], capture_output=True, text=True)
        check(run.returncode == 0, "%s saved into Trip by the CLI: %s" % (name, run.stderr[-300:]))

    server = Server(album, library, state)
    try:
        with sync_playwright() as playwright:
            browser = debian_chromium(playwright)
            page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
            page.goto(server.link)
            trip = album_ids(server)["Trip"]
            page.goto(server.origin + "/#/album/" + quoted(trip["id"]))
            page.wait_for_function(LOADED_CELLS, timeout=30000)
            count = "document.querySelector('.tools .muted').textContent"
            items = lambda n: "%d item%s" % (n, "" if n == 1 else "s")  # as the page says it
            page.wait_for_function("%s === '%s'" % (count, items(trip["count"])), timeout=10000)
            asked = []  # (seconds, address) of every request for the album Trip
            page.on("request", lambda r: asked.append((time.time(), r.url))
                    if ("/api/album-assets" in r.url or "/api/thumbnails" in r.url) and "album=" + quoted(trip["id"]) in r.url else None)
            failed, held = [], []

            def refreshes(route):
                if "offset=0&" not in route.request.url:
                    route.continue_()
                elif mode == "fail" and not failed:
                    failed.append(route.request.url)
                    route.fulfill(status=503, content_type="application/json", body='{"error": "busy"}')
                elif mode == "hold":
                    held.append(route)
                else:
                    route.continue_()

            mode = "fail"
            page.route("**/api/album-assets*", refreshes)
            cli_save("refresh-after-503.jpg")
            try:
                page.wait_for_function("%s === '%s'" % (count, items(trip["count"] + 1)), timeout=20000)
            except Exception:
                fail("the grid still shows %s 20 s after the save (its request for the album failed %d times)" % (page.evaluate(count), len(failed)))
            check(len(failed) == 1, "the grid's request for the album after the save failed once (503), was asked again, and"
                  " the grid shows the new photo: %s" % page.evaluate(count))

            mode = "hold"
            cli_save("refresh-while-leaving-1.jpg")
            deadline = time.time() + 20
            while not held and time.time() < deadline:
                page.wait_for_timeout(50)
            check(len(held) == 1, "the grid asks for the album after the next save (held on its way)")
            cli_save("refresh-while-leaving-2.jpg")
            page.wait_for_timeout(1500)  # the second save heard while the first refresh is on its way
            page.evaluate("location.hash = '#/'")
            page.wait_for_selector("h1:text('Albums')")
            left = time.time()
            try:
                held[0].abort("connectionreset")
            except Exception:
                pass  # the page dropped it itself when it left the album
            page.wait_for_timeout(4000)
            after = [url for moment, url in asked if moment >= left]
            check(not after, "after the page left the album mid-refresh, nothing more is asked for it: %s" % after)
            browser.close()
    finally:
        server.stop()


# Every cell on screen has its thumbnail, loaded.
LOADED_CELLS = "(() => { const cells = [...document.querySelectorAll('.cell')]; return cells.length > 0 && cells.every(c => { const i = c.querySelector('img'); return i && i.complete; }); })()"


def killed_creation(server, photo, trial):
    """The server killed with SIGKILL while a creation's bytes arrive (before its answer), beside an
    upload whose creation was answered and which holds some bytes; a new server started. The new
    server (returned), what is wrong: the one never answered is no longer staged once the new server
    listens, the answered one is there at its offset."""
    problems = []
    status, headers, _ = server.request("POST", "/api/uploads", headers={
        "X-Album-Title": "Cut", "X-File-Name": "answered-%d.jpg" % trial, "Upload-Length": str(len(photo)), "Upload-Complete": "?0"})
    answered = headers.get("location")
    held = min(1000, len(photo) // 2)
    status, headers, _ = server.request("PATCH", answered, body=photo[:held], headers={
        "Upload-Offset": "0", "Upload-Complete": "?0", "Content-Type": "application/partial-upload"})
    if status != 204:
        problems.append("an append to the answered upload answered %d" % status)
    before = set(staged(server.state))
    sock = socket.create_connection((server.host, server.port), timeout=30)
    sock.sendall(("POST /api/uploads HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nX-CSRF-Token: %s\r\nX-Album-Title: Cut\r\n"
                  "X-File-Name: killed-%d.jpg\r\nUpload-Length: %d\r\nUpload-Complete: %s\r\nContent-Length: %d\r\n\r\n"
                  % (server.cookie, server.csrf, trial, len(photo), "?1" if trial % 2 else "?0", len(photo))).encode()
                 + photo[:len(photo) // 3])
    deadline = time.time() + 10
    while not set(staged(server.state)) - before and time.time() < deadline:
        time.sleep(0.01)
    never = set(staged(server.state)) - before
    server.kill()
    sock.close()
    if len(never) != 1:
        problems.append("the creation being sent was not staged before the kill: %s" % never)
    server = Server(server.album, server.library, server.state)
    left = never & set(staged(server.state))
    if left:
        problems.append("the creation never answered is still staged after the start-up: %s" % left)
    status, headers, _ = server.request("HEAD", answered)
    if status != 204 or headers.get("upload-offset") != str(held):
        problems.append("the answered upload is not at its offset after the start-up: %d %s" % (status, headers.get("upload-offset")))
    else:
        server.request("DELETE", answered)
    return server, problems


def cut_trials(album, library, state, work, trials):
    """The reliability harness's servecut: uploads cut at a random byte, or reset, in the middle of
    their body, and sent again the way the page does (the resumable way, pieces appended, those cut
    too, the offset asked with HEAD); every third trial the server is also killed with SIGKILL while
    a creation's bytes arrive, and started again (`killed_creation`). Then every acknowledged photo is
    in the album exactly once with its SHA-256, nothing is left staged, and verify passes. Prints
    `servecut trials=N failures=M`."""
    import random
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    server = Server(album, library, state)
    acknowledged, failures, piece, already, appends_cut, kills = set(), 0, 128 * 1024, 0, 0, 0
    try:
        for trial in range(trials):
            size = random.choice([0, 0.3, 1])
            photo = (large_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), size, "servecut %d %f" % (trial, time.time())) if size
                     else unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "servecut %d %f" % (trial, time.time())))
            digest = hashlib.sha256(photo).hexdigest()
            # Cut at a random byte, or after the last one (the server may then save it before it
            # sees the cut: its answer is lost, and the photo is already in the library when sent again).
            sent = len(photo) if random.random() < 0.3 else random.randint(0, len(photo) - 1)
            cut_creation(server, photo, sent, reset=random.random() < 0.5)
            problems = []
            if trial % 3 == 2:
                server, problems = killed_creation(server, photo, trial)
                kills += 1
            # Sent again the resumable way: created empty, appended a piece at a time, pieces cut.
            status, headers, body = server.request("POST", "/api/uploads", headers={
                "X-Album-Title": "Cut", "X-File-Name": "cut-%d.jpg" % trial, "Upload-Length": str(len(photo)), "Upload-Complete": "?0"})
            if status != 201:
                problems.append("the creation answered %d: %r" % (status, body[:200]))
            where, offset, answer, rounds = headers.get("location"), 0, None, 0
            while not problems and answer is None and rounds < 100:
                rounds += 1
                end = min(len(photo), offset + piece)
                last = end == len(photo)
                if random.random() < 0.3:
                    sock = socket.create_connection((server.host, server.port), timeout=30)
                    sock.sendall(("PATCH %s HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nX-CSRF-Token: %s\r\nUpload-Offset: %d\r\n"
                                  "Upload-Complete: %s\r\nContent-Type: application/partial-upload\r\nContent-Length: %d\r\n\r\n"
                                  % (where, server.cookie, server.csrf, offset, "?1" if last else "?0", end - offset)).encode()
                                 + photo[offset:offset + random.randint(0, end - offset - 1 if end > offset else 0)])
                    if random.random() < 0.5:
                        import struct
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    sock.close()
                    appends_cut += 1
                    # Where the upload stands, as the page asks after a cut (the server may still be
                    # flushing the cut piece: a 409 on the next append says the real offset too).
                    status, headers, _ = server.request("HEAD", where)
                    if status != 204:
                        problems.append("HEAD after a cut answered %d" % status)
                        break
                    offset = int(headers["upload-offset"])
                    continue
                status, headers, body = server.request("PATCH", where, body=photo[offset:end], headers={
                    "Upload-Offset": str(offset), "Upload-Complete": "?1" if last else "?0", "Content-Type": "application/partial-upload"})
                if status == 409:
                    # The cut append may still hold the upload until the server sees its connection close.
                    offset = int(headers["upload-offset"])
                    time.sleep(0.02)
                elif status == 204 and not last:
                    offset = end
                elif status == 200 and last:
                    answer = json.loads(body)
                else:
                    problems.append("an append answered %d: %r" % (status, body[:200]))
            if answer is not None:
                # "already in the library" when the cut request had arrived whole and was saved.
                if answer.get("result") in ("saved", "already in the library"):
                    acknowledged.add(digest)
                    already += answer["result"] == "already in the library"
                else:
                    problems.append("the upload's result: %r" % answer)
            elif not problems:
                problems.append("no answer after %d appends" % rounds)
            if problems:
                failures += 1
                print("trial %d: %s" % (trial, "; ".join(problems)), flush=True)
        left = until_nothing_staged(state)
        if left:
            failures += 1
            print("left staged: %s" % left, flush=True)
    finally:
        server.stop()
    counts = album_sum_counts(album, library, "Cut")
    wrong = {digest[:12]: counts.get(digest, 0) for digest in acknowledged if counts.get(digest) != 1}
    extra = set(counts) - acknowledged
    if wrong or extra:
        failures += 1
        print("acknowledged photos not in the album exactly once: %s; assets no acknowledged upload: %d" % (wrong, len(extra)), flush=True)
    verified = subprocess.run([album, "verify", "--library", library], capture_output=True, text=True)
    if verified.returncode != 0:
        failures += 1
        print("verify: %s" % (verified.stdout + verified.stderr)[-300:], flush=True)
    print("servecut trials=%d failures=%d acknowledged=%d (%d already in the library: sent whole before the cut), appends cut %d,"
          " servers killed mid-creation %d" % (trials, failures, len(acknowledged), already, appends_cut, kills), flush=True)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    mode, album, library, state, work = sys.argv[1:6]
    if mode == "http":
        http_checks(album, library, state, work)
    elif mode == "tls":
        tls_checks(album, library, state, work, sys.argv[6])
    elif mode == "two":
        two_servers(album, library, work)
    elif mode == "share":
        share_checks(album, library, state, work)
    elif mode == "forge":
        forge_checks(album, library, state, work, int(sys.argv[6]))
    elif mode == "share-browser":
        share_browser_checks(album, library, state, work, sys.argv[6])
    elif mode == "kill":
        kill_trials(album, library, state, work, int(sys.argv[6]))
    elif mode == "uploads":
        upload_request_checks(album, library, state, work)
    elif mode == "gridtasks":
        grid_task_checks(album, library, state, work)
    elif mode == "gridrefresh":
        grid_refresh_checks(album, library, state, work)
    elif mode == "cut":
        cut_trials(album, library, state, work, int(sys.argv[6]))
    elif mode == "forgedthumb":
        forged_thumbnail_checks(album, library, state, work, int(sys.argv[6]))
    else:
        browser_checks(album, library, state, work, sys.argv[6])
    print("all checks passed", flush=True)
