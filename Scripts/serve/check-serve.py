#!/usr/bin/env python3
"""Checks `album serve` from outside, as a phone or an attacker would: run by ServeCLITests.

    check-serve.py http    ALBUM LIBRARY STATE_DIR WORK_DIR
    check-serve.py browser ALBUM LIBRARY STATE_DIR WORK_DIR SCREENSHOTS_DIR
    check-serve.py kill    ALBUM LIBRARY STATE_DIR WORK_DIR TRIALS
    check-serve.py tls     ALBUM LIBRARY STATE_DIR WORK_DIR OPENSSL
    check-serve.py two     ALBUM LIBRARY STATE_DIR WORK_DIR        (a shared library)

`http` needs only Python: the access token and its cookie, refusals (no cookie, no CSRF header, a
foreign Origin, traversal, a header too large, a cut body), byte ranges, the resumable upload
protocol, and a server killed with SIGKILL in the middle of an upload (nothing half-saved; the
upload resumes on the next server from its offset and is saved with its SHA-256).
`browser` drives Debian's Chromium with Playwright: albums, an album, a photo, uploads through the
file input (photos and a video), seen afterwards by `album show`; screenshots kept.
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
        with socket.create_connection((self.host, self.port), timeout=30) as sock:
            sock.sendall(payload)
            if not read:
                return None
            sock.shutdown(socket.SHUT_WR)
            answer = b""
            while True:
                chunk = sock.recv(65536)
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
        photo = assets[0]
        status, headers, whole = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""))
        check(status == 200 and headers.get("accept-ranges") == "bytes" and len(whole) == photo["size"],
              "the original is sent whole, with Accept-Ranges")
        status, headers, part = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""), headers={"Range": "bytes=4-13"})
        check(status == 206 and part == whole[4:14] and headers.get("content-range") == "bytes 4-13/%d" % len(whole),
              "a byte range is answered 206 with those bytes")
        status, _, _ = server.request("GET", "/api/original?asset=%s" % urllib.parse.quote(photo["id"], safe=""), headers={"Range": "bytes=%d-" % (len(whole) + 5)})
        check(status == 416, "a range past the end is answered 416")
        status, headers, _ = server.request("GET", "/api/thumbnail?asset=%s" % urllib.parse.quote(photo["id"], safe=""))
        check(status == 200 and headers.get("content-type", "").startswith("image/"), "a thumbnail (or the placeholder) is an image")

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
        status, _, body = server.request("POST", "/api/uploads", body=b"", headers={
            "X-Album-Title": "Uploaded", "X-File-Name": "huge.mov", "Upload-Length": str(1 << 50), "Upload-Complete": "?0"})
        check(status == 400 and "over the largest file" in json.loads(body)["error"], "an upload over the size limit is refused with a message")

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
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
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
            large = os.path.join(work, "large.jpg")
            open(large, "wb").write(large_jpeg(os.path.join(corpus, "jpeg-gps-ne-be.jpg"), 20, "check-serve cut"))
            sent, cut = [], []

            def patch(route):
                request = route.request
                if request.method == "PATCH" and not cut and request.headers.get("upload-offset") == str(8 * 1024 * 1024):
                    cut.append(len(request.post_data_buffer or b""))
                    route.abort("connectionreset")
                    return
                if request.method == "PATCH":
                    sent.append(len(request.post_data_buffer or b""))
                route.continue_()

            page.route("**/api/uploads/*", patch)
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(trip["id"], safe=""))
            page.wait_for_selector("input[type=file]")
            page.set_input_files("input[type=file]", [large])
            page.wait_for_function("[...document.querySelectorAll('.uploads li')].some(li => /large.jpg .* (saved|not saved.*)$/.test(li.textContent))", timeout=120000)
            result = [text for text in page.locator(".uploads li").all_inner_texts() if "large.jpg" in text]
            check(cut and result and result[0].rstrip().endswith(" saved"), "a 20 MB upload cut at 8 MB resumes and is saved: %s" % result)
            size = os.path.getsize(large)
            check(sum(sent) + cut[0] <= size + 8 * 1024 * 1024 and sum(sent) >= size - 8 * 1024 * 1024,
                  "after the cut at most one piece is sent again (%d bytes for a %d-byte file)" % (sum(sent) + cut[0], size))
            check(hashlib.sha256(open(large, "rb").read()).hexdigest() in asset_sums(album, library, "Trip"),
                  "the resumed upload is saved with the SHA-256 of the file")
            page.unroute("**/api/uploads/*")
            outsider = browser.new_context().new_page()
            response = outsider.goto(server.origin + "/api/albums")
            check(response.status == 401, "a browser without the cookie is refused")
            browser.close()
    finally:
        server.stop()


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


if __name__ == "__main__":
    mode, album, library, state, work = sys.argv[1:6]
    if mode == "http":
        http_checks(album, library, state, work)
    elif mode == "tls":
        tls_checks(album, library, state, work, sys.argv[6])
    elif mode == "two":
        two_servers(album, library, work)
    elif mode == "kill":
        kill_trials(album, library, state, work, int(sys.argv[6]))
    else:
        browser_checks(album, library, state, work, sys.argv[6])
    print("all checks passed", flush=True)
