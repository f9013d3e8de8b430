#!/usr/bin/env python3
"""Measures `album serve` (Docs/serve.md, Docs/performance.md):

    bench-serve.py ALBUM WORK_DIR [PHOTOS]
    bench-serve.py grid ALBUM WORK_DIR COUNT
    bench-serve.py grid-runs ALBUM LIBRARY TITLE LAST_NAME RUNS STATE_DIR [SAMPLES]
    bench-serve.py resume ALBUM WORK_DIR GIB

- thumbnails served per second from a warm page cache: 8 keep-alive connections asking for the
  thumbnails of an album's assets for 5 s (the client is Python: it is part of what is measured);
- grid-runs: the album TITLE of an existing LIBRARY (its last asset named LAST_NAME) opened RUNS
  times in a fresh browser context each: the first screen of thumbnails, a jump to the middle and
  one to the end, and the page's long tasks (over 50 ms); then once, SAMPLES places (default 100:
  the first, the last, evenly spaced ones between) scrolled to through the scroll bar's mapping and
  a screen on from each: the share of them drawn with their asset, the scroll positions each row
  has, and the long tasks meanwhile. One line per measure, for album-bench's grid row;
- resume: a video of GIB GiB uploaded through the page in headless Chromium, its connection cut at
  60 % and resumed: the bytes sent again (at most one piece of 8 MiB), read off the page's own
  requests; needs four times its size free in WORK_DIR;
- PHOTOS photos (default 300, about 200 KB each) uploaded through the page's file input in headless
  Chromium, against `curl` sending the same files to the same server (one connection, one request
  per file, the upload protocol's single-request form), both into a new album of a new catalog.
"""
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
check = __import__("check-serve")


def thumbnails_per_second(server, seconds=5, connections=8):
    status, _, body = server.request("GET", "/api/albums")
    album = json.loads(body)["albums"][0]
    _, _, body = server.request("GET", "/api/album-assets?album=%s&offset=0&limit=100" % urllib.parse.quote(album["id"], safe=""))
    paths = ["/api/thumbnail?asset=" + urllib.parse.quote(a["id"], safe="") for a in json.loads(body)["assets"]]
    for path in paths:  # warm
        server.request("GET", path)
    counts = []
    stop = time.time() + seconds

    def worker():
        connection = http.client.HTTPConnection(server.host, server.port)
        done = 0
        while time.time() < stop:
            connection.request("GET", paths[done % len(paths)], headers={"Cookie": server.cookie})
            response = connection.getresponse()
            response.read()
            assert response.status == 200
            done += 1
        counts.append(done)

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    start = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.time() - start), len(paths)


def main():
    album, work = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    os.makedirs(work, exist_ok=True)
    template = os.path.join(corpus, "jpeg-gps-ne-be.jpg")
    sets = {}
    for name in ("browser", "curl"):
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        sets[name] = []
        for index in range(count):
            path = os.path.join(folder, "IMG_%04d.jpg" % index)
            with open(path, "wb") as file:
                file.write(check.large_jpeg(template, 0.2, "bench %s %d" % (name, index)))
            sets[name].append(path)
    library = os.path.join(work, "Bench.albumlibrary")
    subprocess.run([album, "save", "--library", library, "--catalog", "--album", "Trip"] + sets["curl"][:100], check=True,
                   capture_output=True)
    sets["curl"] = sets["curl"][100:] + [os.path.join(work, "curl", "extra-%d.jpg" % i) for i in range(100)]
    for index, path in enumerate(sets["curl"][-100:]):
        with open(path, "wb") as file:
            file.write(check.large_jpeg(template, 0.2, "bench curl extra %d" % index))
    server = check.Server(album, library, os.path.join(work, "state"))
    try:
        rate, assets = thumbnails_per_second(server)
        print("thumbnails served per second (warm, 8 connections, %d assets): %.0f" % (assets, rate), flush=True)

        arguments = ["curl", "-s"]
        for index, path in enumerate(sets["curl"]):
            if index:
                arguments.append("--next")
            arguments += ["-o", "/dev/null", "-H", "Cookie: " + server.cookie, "-H", "X-CSRF-Token: " + server.csrf, "-H", "X-Album-Title: Curl",
                          "-H", "X-File-Name: " + os.path.basename(path), "-H", "Upload-Complete: ?1",
                          "-H", "Upload-Length: %d" % os.path.getsize(path), "--data-binary", "@" + path,
                          "http://%s:%d/api/uploads" % (server.host, server.port)]
        start = time.time()
        subprocess.run(arguments, check=True)
        curl_seconds = time.time() - start
        size = sum(os.path.getsize(p) for p in sets["curl"]) / 1e6
        print("curl: %d photos (%.0f MB) in %.2f s" % (count, size, curl_seconds), flush=True)

        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(server.link)
            page.goto(server.origin + "/#/new/Browser")
            page.wait_for_selector("input[type=file]")
            start = time.time()
            page.set_input_files("input[type=file]", sets["browser"])
            page.wait_for_function(
                "[...document.querySelectorAll('.uploads li')].filter(li => / (saved|already in the library|not saved.*)$/.test(li.textContent)).length === %d" % count,
                timeout=600000)
            browser_seconds = time.time() - start
            results = page.locator(".uploads li").all_inner_texts()
            browser.close()
        saved = sum(1 for text in results if text.rstrip().endswith(" saved"))
        print("browser: %d photos in %.2f s (%d saved)" % (count, browser_seconds, saved), flush=True)
        print("browser / curl speed: %.2f" % (curl_seconds / browser_seconds), flush=True)
    finally:
        server.stop()




def grid(album, work, count):
    """An album of `count` photos in headless Chromium: the first screen of thumbnails, the grid
    scrolled to its end (the last photo reached), and the page's long tasks (over 50 ms)."""
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    folder = os.path.join(work, "grid-%d" % count)
    library = os.path.join(work, "Grid-%d.albumlibrary" % count)
    if not os.path.exists(library):
        os.makedirs(folder, exist_ok=True)
        template = os.path.join(corpus, "jpeg-thumbnail.jpg")
        for index in range(count):
            with open(os.path.join(folder, "IMG_%07d.jpg" % index), "wb") as file:
                file.write(check.unique_jpeg(template, "grid %d" % index))
        start = time.time()
        subprocess.run([album, "import", "--library", library, "--catalog", "--album", "Big", folder], check=True,
                       capture_output=True)
        print("import of %d photos: %.1f s" % (count, time.time() - start), flush=True)
    server = check.Server(album, library, os.path.join(work, "state"))
    try:
        from playwright.sync_api import sync_playwright
        _, _, body = server.request("GET", "/api/albums")
        big = next(a for a in json.loads(body)["albums"] if a["title"] == "Big")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
            page.goto(server.link)
            page.evaluate("window.longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ entryTypes: ['longtask'] });")
            start = time.time()
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(big["id"], safe=""))
            page.wait_for_function("document.querySelectorAll('.cell img').length > 0 && [...document.querySelectorAll('.cell img')].every(i => i.complete)")
            first = time.time() - start
            print("album of %d: first screen of thumbnails in %.0f ms (from the album's address, server and browser)" % (count, first * 1000), flush=True)
            cells = page.evaluate("document.querySelectorAll('.cell').length")
            print("cells in the page: %d" % cells, flush=True)
            for fraction in (0.25, 0.5, 0.75, 1.0):
                start = time.time()
                page.evaluate("(f) => { const s = document.querySelector('.scroller'); s.scrollTop = f * (s.scrollHeight - s.clientHeight); }", fraction)
                if fraction == 1.0:
                    page.wait_for_function("[...document.querySelectorAll('.cell')].some(c => c.getAttribute('aria-label') === 'IMG_%07d.jpg')" % (count - 1), timeout=120000)
                else:
                    page.wait_for_function("document.querySelectorAll('.cell img').length > 0 && [...document.querySelectorAll('.cell img')].every(i => i.complete)", timeout=120000)
                print("scrolled to %d%%: thumbnails in %.0f ms" % (fraction * 100, (time.time() - start) * 1000), flush=True)
            long_tasks = page.evaluate("window.longTasks")
            print("the last photo (IMG_%07d.jpg) reached; long tasks over 50 ms: %d %s" % (count - 1, len(long_tasks), long_tasks[:5]), flush=True)
            browser.close()
    finally:
        server.stop()


LOADED = "(() => { const cells = [...document.querySelectorAll('.cell')]; return cells.length > 0 && cells.every(c => { const i = c.querySelector('img'); return i && i.complete; }); })()"

# Every place of the album can be scrolled to: the scroll bar's mapping gives each row scroll
# positions of its own, and sampled places (the first, the last, and evenly spaced ones between)
# are jumped to through that mapping, each checked drawn with its asset's thumbnail, then the grid
# moved on one screen from there. Bounded: a million places are ~40 000 screens, too many to draw
# one by one.
SWEEP = """async ({ count, samples, budget }) => {
  const s = document.querySelector('.scroller');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const columns = document.querySelector('.row').querySelectorAll('.cell').length;
  const rowHeight = document.querySelector('.cell').offsetHeight + 4;
  const rows = Math.ceil(count / columns);
  const room = s.scrollHeight - s.clientHeight;
  const total = Math.max(1, rows * rowHeight - s.clientHeight);
  const shown = Math.max(1, Math.floor(s.clientHeight / rowHeight) - 1);
  const places = [0, count - 1];
  for (let i = 1; i < samples - 1; i++) places.push(Math.floor(i * (count - 1) / (samples - 1)));
  const index = (c) => Number(c.getAttribute('href').split('/').pop());
  // Drawn: the cell of `place` is on screen with its thumbnail, and so is every other cell. The
  // grid draws on the frame after the scroll, so the first frames may still show the rows before.
  const drawn = async (place) => {
    const until = performance.now() + 10000;
    while (performance.now() < until) {
      await frame();
      const cells = [...document.querySelectorAll('.cell')];
      const complete = (c) => { const i = c.querySelector('img'); return i && i.complete; };
      if (cells.some((c) => index(c) === place) && cells.every(complete)) return true;
    }
    return false;
  };
  const started = performance.now();
  let reached = 0, steps = 0, tried = 0;
  const missed = [];
  for (const place of places) {
    if (performance.now() - started > budget * 1000) break;
    tried++;
    // The scroll position whose first row drawn is the place's row (the last screen for the last rows).
    const target = Math.min(room, Math.ceil(Math.floor(place / columns) * rowHeight * room / total));
    s.scrollTop = target;
    if (await drawn(place)) reached++; else missed.push(place);
    steps++;
    // A screen on: the place a screen's rows further is drawn too.
    const on = Math.min(count - 1, place + shown * columns);
    s.scrollTop = Math.min(room, target + Math.ceil(shown * rowHeight * room / total));
    await drawn(on);
    steps++;
  }
  return { reached, tried, samples: places.length, steps, seconds: (performance.now() - started) / 1000,
           perRow: room / Math.max(1, rows - Math.floor(s.clientHeight / rowHeight)), missed: missed.slice(0, 5),
           ends: tried === places.length && !missed.includes(0) && !missed.includes(count - 1) };
}"""


def grid_run(page, address, count, last_name):
    """One run of grid-runs: the seconds to the first screen of thumbnails, to the middle, to the end."""
    start = time.time()
    page.goto(address)
    page.wait_for_function(LOADED, timeout=30000)
    timings = [time.time() - start]
    for fraction in (0.5, 1.0):
        start = time.time()
        page.evaluate("(f) => { const s = document.querySelector('.scroller'); s.scrollTop = f * (s.scrollHeight - s.clientHeight); }", fraction)
        # Drawn at the place jumped to (the first cell's position past 40 % of the album), every cell with its thumbnail.
        page.wait_for_function("(n) => { const c = document.querySelector('.cell'); return c && Number(c.getAttribute('href').split('/').pop()) >= n && %s; }" % LOADED, arg=int(count * 0.4), timeout=30000)
        if fraction == 1.0:
            page.wait_for_function("[...document.querySelectorAll('.cell')].some(c => c.getAttribute('aria-label') === %s)" % json.dumps(last_name), timeout=30000)
            page.wait_for_function(LOADED, timeout=30000)
        timings.append(time.time() - start)
    return timings


def grid_runs(album, library, title, last_name, runs, state, samples=100):
    """Medians come from album-bench: this prints each run's numbers."""
    from playwright.sync_api import sync_playwright
    server = check.Server(album, library, state)
    try:
        # What the server does once started, before anything is asked of it (its change feed's
        # start): its CPU time and resident memory once it has used no CPU for a second.
        def used():
            fields = open("/proc/%d/stat" % server.process.pid).read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        started, last, still = time.time(), used(), 0
        while still < 4 and time.time() - started < 120:
            time.sleep(0.25)
            now = used()
            still, last = (still + 1, now) if now == last else (0, now)
        resident = int(open("/proc/%d/status" % server.process.pid).read().split("VmRSS:")[1].split()[0]) / 1024
        print("server start: cpu %.2f s, resident %.1f MB, settled after %.1f s" % (last, resident, time.time() - started),
              flush=True)
        for label in ("albums list, first", "albums list"):
            start = time.time()
            _, _, body = server.request("GET", "/api/albums")
            print("%s: %.1f ms" % (label, (time.time() - start) * 1000), flush=True)
        target = next(a for a in json.loads(body)["albums"] if a["title"] == title)
        count = target["count"]
        address = server.origin + "/#/album/" + urllib.parse.quote(target["id"], safe="")
        observe = "window.longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ entryTypes: ['longtask'] });"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            for run in range(runs):
                context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
                page = context.new_page()
                page.goto(server.link)
                page.evaluate(observe)
                try:
                    timings = grid_run(page, address, count, last_name)
                except Exception as error:  # a wait that timed out: said, with what the page shows, and the next run goes on
                    print("run %d: timed out (%s; the page shows: %r)" % (run + 1, str(error).split("\n")[0],
                          page.evaluate("document.querySelector('main').innerText.slice(0, 200)")), flush=True)
                    context.close()
                    continue
                long_tasks = page.evaluate("window.longTasks")
                print("run %d: first screen %.1f ms, middle %.1f ms, end %.1f ms, long tasks %d %s" % (
                    run + 1, timings[0] * 1000, timings[1] * 1000, timings[2] * 1000, len(long_tasks),
                    [round(t) for t in long_tasks[:5]]), flush=True)
                context.close()
            context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
            page = context.new_page()
            page.goto(server.link)
            page.goto(address)
            try:
                page.wait_for_function(LOADED, timeout=120000)
            except Exception:
                print("sweep: the grid did not draw; the page shows: %r" % page.evaluate("document.querySelector('main').innerText.slice(0, 200)"), flush=True)
                raise
            page.evaluate(observe)
            swept = page.evaluate(SWEEP, {"count": count, "samples": samples, "budget": 600})
            long_tasks = page.evaluate("window.longTasks")
            print("sweep: %d of %d sampled places drawn with their asset (%.2f %%), the first and the last %s%s; "
                  "%d screens in %.1f s; scroll positions per row %.1f (%s); long tasks %d %s" % (
                      swept["reached"], swept["samples"], 100.0 * swept["reached"] / max(1, swept["samples"]),
                      "reached" if swept["ends"] else "NOT both reached",
                      "" if swept["tried"] == swept["samples"] else " (stopped at the time limit after %d)" % swept["tried"],
                      swept["steps"], swept["seconds"], swept["perRow"],
                      "every row has its own" if swept["perRow"] >= 1 else "rows share positions: some are not reachable",
                      len(long_tasks), [round(t) for t in long_tasks[:5]])
                  + ("; missed %s" % swept["missed"] if swept["missed"] else ""), flush=True)
            browser.close()
    finally:
        server.stop()


def resume(album, work, gib):
    corpus = os.path.join(os.path.dirname(__file__), "../../Tests/AlbumKitMediaTests/Fixtures/corpus")
    os.makedirs(work, exist_ok=True)
    library = os.path.join(work, "Resume.albumlibrary")
    photo = os.path.join(work, "first.jpg")
    with open(photo, "wb") as file:
        file.write(check.unique_jpeg(os.path.join(corpus, "jpeg-plain.jpg"), "bench resume %f" % time.time()))
    subprocess.run([album, "save", "--library", library, "--catalog", "--album", "Long takes", photo], check=True,
                   capture_output=True)
    server = check.Server(album, library, os.path.join(work, "state"))
    try:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(server.link)
            albums = check.album_ids(server)
            page.goto(server.origin + "/#/album/" + urllib.parse.quote(albums["Long takes"]["id"], safe=""))
            page.wait_for_selector("input[type=file]")
            check.cut_and_resumed(page, album, library, work, corpus, size=int(gib * (1 << 30)), title="Long takes")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    if sys.argv[1] == "resume":
        resume(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif sys.argv[1] == "grid-runs":
        grid_runs(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7],
                  int(sys.argv[8]) if len(sys.argv) > 8 else 100)
    elif sys.argv[1] == "grid":
        grid(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
