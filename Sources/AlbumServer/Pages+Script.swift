/// The script of `album serve`'s pages: the albums, an album's grid, a photo, uploads and a share
/// link's guest view, in one file served as `/app.js`.
extension Pages {
    static let script = """
        'use strict';
        const csrf = document.querySelector('meta[name=csrf]').content;
        const nested = document.querySelector('meta[name=nested]').content === 'true';
        // A share link's guest: the one album it shows, and whether they may add to it.
        const guest = JSON.parse(document.querySelector('meta[name=guest]').content || 'null');
        const main = document.getElementById('main');
        const where = document.getElementById('where');
        const CHUNK = 8 * 1024 * 1024;
        // Places of an album asked for at a time.
        const GRID_PAGE = 100;
        let teardown = () => {};

        function el(tag, props = {}, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(props)) {
            if (key === 'class') node.className = value; else if (key in node) node[key] = value; else node.setAttribute(key, value);
          }
          for (const child of children) node.append(child);
          return node;
        }
        // `signal`: the page the request is for was left; nothing more is asked for it.
        async function api(path, signal) {
          // A connection refused or dropped (a busy server, a phone between networks) is tried again
          // twice, half a second apart, before the page says so.
          let response;
          for (let attempt = 0; !response; attempt++) {
            try { response = await fetch(path, { credentials: 'same-origin', signal }); }
            catch (error) { if (attempt >= 2 || (signal && signal.aborted)) throw error; await pause(500); }
          }
          const body = await response.json();
          if (!response.ok) throw new Error(body.error || response.statusText);
          return body;
        }
        function day(iso) { return iso ? iso.slice(0, 10) : ''; }
        function bytes(n) {
          if (n == null) return '';
          const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
          let i = 0; while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
          return (i ? n.toFixed(1) : n) + ' ' + units[i];
        }
        function show(...nodes) { teardown(); teardown = () => {}; main.replaceChildren(...nodes); }
        // Which address the page is at, counted: a page whose requests come back after the address
        // changed (the albums still loading when an album was opened) is not shown over the new one.
        let turn = 0;

        async function albumsPage() {
          where.textContent = '';
          const mine = turn;
          const { albums } = await api('/api/albums');
          if (mine !== turn) return;
          const card = (album, label) => el('a', { href: '#/album/' + encodeURIComponent(album.id) },
            el('img', { src: '/api/cover?album=' + encodeURIComponent(album.id), alt: '', loading: 'lazy', width: 160, height: 160 }),
            el('div', {}, label || album.title),
            el('div', { class: 'meta' }, album.count + (album.count === 1 ? ' item' : ' items') +
              (album.first ? ' · ' + day(album.first) + (album.last && day(album.last) !== day(album.first) ? ' – ' + day(album.last) : '') : '')));
          let list;
          if (nested) {
            const root = { children: new Map() };
            for (const album of albums) {
              let node = root;
              for (const part of album.title.split('/')) {
                if (!node.children.has(part)) node.children.set(part, { children: new Map() });
                node = node.children.get(part);
              }
              node.album = album;
            }
            const render = (node) => el('ul', {}, ...[...node.children].map(([name, child]) =>
              el('li', {}, child.album ? el('a', { href: '#/album/' + encodeURIComponent(child.album.id) }, name + ' (' + child.album.count + ')') : name,
                child.children.size ? render(child) : '')));
            list = el('div', { class: 'tree' }, render(root));
          } else {
            list = el('ul', { class: 'albums' }, ...albums.map((album) => el('li', {}, card(album))));
          }
          const title = el('input', { type: 'text', placeholder: 'New album', 'aria-label': 'New album title' });
          const go = el('button', { type: 'button' }, 'Open');
          go.onclick = () => { if (title.value.trim()) location.hash = '#/new/' + encodeURIComponent(title.value.trim()); };
          show(el('h1', {}, 'Albums'), list, el('p', { class: 'tools' }, title, go));
          const live = new EventSource('/api/events');
          live.onmessage = () => { live.close(); albumsPage(); };
          teardown = () => live.close();
        }

        function uploader(albumTitle, done) {
          const input = el('input', { type: 'file', multiple: true, accept: 'image/*,video/*', 'aria-label': 'Add photos and videos' });
          const drop = el('label', { class: 'drop' }, 'Add photos or videos ', input);
          const list = el('ul', { class: 'uploads' });
          const queue = [];
          let running = 0;
          const pump = () => {
            while (running < 3 && queue.length) {
              const job = queue.shift(); running++;
              upload(job).finally(() => { running--; pump(); if (!running && !queue.length) done(); });
            }
          };
          // Sidecars (NAME.xmp or NAME.EXT.xmp, .AAE) picked with their photo are sent first and
          // saved with it, in its one save; a sidecar without its photo is said so, not sent.
          const isSidecar = (name) => /\\.(xmp|aae)$/i.test(name);
          const add = (files) => {
            const all = [...files];
            const photos = all.filter((file) => !isSidecar(file.name));
            const sidecars = new Map();
            for (const file of all.filter((file) => isSidecar(file.name))) {
              const base = file.name.replace(/\\.[^.]*$/, '').toLowerCase();
              const photo = photos.find((p) => p.name.toLowerCase() === base)
                || photos.find((p) => p.name.replace(/\\.[^.]*$/, '').toLowerCase() === base);
              if (photo) { if (!sidecars.has(photo)) sidecars.set(photo, []); sidecars.get(photo).push(file); continue; }
              list.append(el('li', { class: 'lone' }, file.name + ' ', el('span', {},
                ' not saved: a sidecar is saved with its photo; pick it together with the photo it belongs to')));
            }
            for (const file of photos) {
              const bar = el('progress', { max: 1, value: 0 });
              const state = el('span', {}, ' waiting');
              const along = sidecars.get(file) || [];
              list.append(el('li', {}, file.name + (along.length ? ' + ' + along.map((f) => f.name).join(', ') : '') + ' ', bar, state));
              queue.push({ file, bar, state, sidecars: along });
            }
            pump();
          };
          input.onchange = () => { add(input.files); input.value = ''; };
          drop.ondragover = (event) => { event.preventDefault(); drop.classList.add('over'); };
          drop.ondragleave = () => drop.classList.remove('over');
          drop.ondrop = (event) => { event.preventDefault(); drop.classList.remove('over'); add(event.dataTransfer.files); };
          async function upload({ file, bar, state, sidecars }) {
            state.textContent = ' uploading';
            try {
              const headers = {
                'X-Album-Title': encodeURIComponent(albumTitle), 'X-File-Name': encodeURIComponent(file.name),
                'Upload-Length': String(file.size) };
              const shown = (from) => (sent) => { bar.value = (from + sent) / Math.max(1, file.size); };
              let last = null;
              // A file of one piece goes whole in the request that creates it. Cut before its answer,
              // the server forgets it (and its sidecars), and it goes again the resumable way, its
              // sidecars again too (the server may have saved it just before the cut: then the answer
              // is that it is already in the library).
              if (file.size <= CHUNK) {
                const companions = await sendSidecars(sidecars);
                try {
                  last = await send('POST', '/api/uploads', file, Object.assign({ 'Upload-Complete': '?1' }, headers, companions), shown(0));
                } catch (cut) {
                  await pause(500);
                }
              }
              if (!last) last = await resumable(file, Object.assign(headers, await sendSidecars(sidecars)), shown);
              bar.value = 1;
              state.textContent = ' ' + message(last);
            } catch (error) {
              state.textContent = ' not saved: ' + error.message;
            }
          }
          // Sidecars go first, each whole in one request, and are named by the photo's upload
          // (X-Companions), which saves them with it.
          async function sendSidecars(sidecars) {
            const companions = [];
            for (const sidecar of sidecars || []) {
              const sent = await send('POST', '/api/uploads', sidecar, {
                'X-Album-Title': encodeURIComponent(albumTitle), 'X-File-Name': encodeURIComponent(sidecar.name),
                'Upload-Length': String(sidecar.size), 'Upload-Complete': '?1', 'X-Sidecar': '?1' });
              if (sent.status !== 200) throw new Error(sidecar.name + ': ' + message(sent));
              companions.push(JSON.parse(sent.responseText).upload);
            }
            return companions.length ? { 'X-Companions': companions.join(',') } : {};
          }
          // The resumable way: an empty upload created, then pieces of CHUNK appended; a piece cut
          // goes on from the offset the server says it holds. The answer to the last piece.
          async function resumable(file, headers, shown) {
            const created = await send('POST', '/api/uploads', null, Object.assign({ 'Upload-Complete': '?0' }, headers));
            if (created.status !== 201) throw new Error(message(created));
            const where = created.getResponseHeader('Location');
            let offset = 0, failures = 0;
            while (true) {
              const end = Math.min(file.size, offset + CHUNK);
              const final = end === file.size;
              let response;
              try {
                response = await send('PATCH', where, file.slice(offset, end), {
                  'Upload-Offset': String(offset), 'Upload-Complete': final ? '?1' : '?0',
                  'Content-Type': 'application/partial-upload' }, shown(offset));
              } catch (cut) {
                // The connection dropped: ask the server where the upload stands and go on from there.
                if (++failures > 8) throw cut;
                await pause(500 * failures);
                const head = await send('HEAD', where, null, {});
                if (head.status !== 204) throw new Error('the upload was lost');
                offset = Number(head.getResponseHeader('Upload-Offset'));
                continue;
              }
              if (response.status === 409) { offset = Number(response.getResponseHeader('Upload-Offset')); continue; }
              if (final || response.status >= 300) return response;
              offset = end;
            }
          }
          return el('div', {}, drop, list);
        }
        function message(response) {
          try {
            const body = JSON.parse(response.responseText);
            const along = body.sidecars && body.sidecars.length ? ' with ' + body.sidecars.join(', ') : '';
            return body.result ? body.result + along + (body.error ? ': ' + body.error : '') : body.error;
          }
          catch { return response.statusText || String(response.status); }
        }
        function pause(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
        function send(method, url, body, headers, progress) {
          return new Promise((resolve, reject) => {
            const request = new XMLHttpRequest();
            request.open(method, url);
            request.setRequestHeader('X-CSRF-Token', csrf);
            request.setRequestHeader('Upload-Draft-Interop-Version', '6');
            for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
            if (progress) request.upload.onprogress = (event) => progress(event.loaded);
            request.onload = () => resolve(request);
            request.onerror = () => reject(new Error('the connection was cut'));
            request.send(body);
          });
        }

        // The album's order (`added` or `taken`) is the last part of its address and of its photos':
        // a reload, a link or the back button keeps it.
        const ordered = (order) => (order === 'taken' ? '/taken' : '');
        async function albumPage(id, titleIfNew, order = 'added') {
          const mine = turn;
          let album, first = null, early = null;
          if (titleIfNew) {
            album = { id: null, title: titleIfNew, count: 0 };
          } else {
            // The album and its first places in one answer, and beside it the first screen's
            // thumbnails (as many as the window can show): the first screen waits for one round trip.
            const room = window.innerWidth - 48, columns = Math.max(2, Math.floor(room / 130));
            const side = Math.floor((room - 4 * (columns - 1)) / columns) + 4;
            early = thumbnailRun(id, 0, Math.min(200, columns * (Math.ceil((window.innerHeight - 144) / side) + 1)), order);
            early.items.catch(() => {});  // the album's own request says what went wrong
            first = await api('/api/album-assets?album=' + encodeURIComponent(id) + '&offset=0&limit=' + GRID_PAGE + '&order=' + order);
            album = first.album;
            if (mine !== turn) return;
          }
          where.textContent = album.title;
          const heading = el('h1', {}, album.title);
          const count = el('span', { class: 'muted' });
          const scroller = el('div', { class: 'scroller', tabindex: 0, 'aria-label': 'Photos and videos' });
          const spacer = el('div');
          const rows = el('div', { class: 'rows' });
          scroller.append(rows, spacer);
          // Aborted when the page leaves the album: its requests, and those it would make again.
          const leaving = new AbortController();
          const grid = virtualGrid(scroller, spacer, rows, () => album, order, early, leaving.signal);
          const sort = el('select', { 'aria-label': 'Order', id: 'order' },
            el('option', { value: 'added' }, 'Date added'), el('option', { value: 'taken' }, 'Date taken'));
          sort.value = order;
          sort.onchange = () => { if (album.id) location.hash = '#/album/' + encodeURIComponent(album.id) + ordered(sort.value); };
          const refresh = async () => {
            if (album.id) {
              const body = await api('/api/album-assets?album=' + encodeURIComponent(album.id) + '&offset=0&limit=' + GRID_PAGE + '&order=' + order, leaving.signal);
              album = body.album;
              grid.reset(body.assets);
              return;
            }
            const albums = (await api('/api/albums', leaving.signal)).albums;
            const found = albums.find((a) => a.title === album.title);
            if (found) { album = found; if (titleIfNew) { history.replaceState(null, '', '#/album/' + encodeURIComponent(found.id)); titleIfNew = null; } }
            grid.reset();
          };
          // The album is asked for again at most once a second, however many changes are heard (an
          // upload of hundreds of photos tells of each): a change heard meanwhile waits for the next
          // turn, so the last one is always shown. A refresh that failed is tried again 1, 2, 4, 8 and
          // 16 s later, or at once when another change is heard; none starts once the page left the album.
          let refreshTimer = 0, refreshed = -Infinity, refreshing = false, again = false, failures = 0;
          const refreshAfter = (wait) => {
            if (leaving.signal.aborted) return;
            if (refreshing) { again = true; return; }
            if (refreshTimer) return;
            refreshTimer = setTimeout(async () => {
              refreshTimer = 0; refreshing = true; refreshed = performance.now();
              try { await refresh(); failures = 0; } catch { failures++; }
              refreshing = false;
              const retry = failures > 0 && failures <= 5;
              if (again || retry) { again = false; refreshAfter(retry ? 1000 * 2 ** (failures - 1) : 0); }
            }, Math.max(wait, refreshed + 1000 - performance.now()));
          };
          const refreshSoon = () => {
            if (failures && !refreshing) { clearTimeout(refreshTimer); refreshTimer = 0; }
            failures = 0;
            refreshAfter(0);
          };
          const adds = !guest || guest.add;
          show(heading, el('div', { class: 'tools' }, adds ? uploader(album.title, refreshSoon) : '', sort, count), scroller);
          grid.reset(first && first.assets);
          const tick = setInterval(() => { count.textContent = album.count + (album.count === 1 ? ' item' : ' items'); }, 300);
          // Live: a save by the CLI, another server or another machine shows without reloading. A
          // share link's guest hears of its album alone; told to reload once the link is revoked or
          // expired, the page then says so.
          const live = new EventSource('/api/events');
          live.onmessage = (event) => { const change = JSON.parse(event.data); if (change.reload) location.reload(); else refreshSoon(); };
          if (guest) live.onerror = () => { if (live.readyState === EventSource.CLOSED) location.reload(); };
          teardown = () => { leaving.abort(); clearInterval(tick); clearTimeout(refreshTimer); grid.stop(); live.close(); };
        }

        // The thumbnails of `limit` places of an album from `offset`, in one request (/api/thumbnails):
        // `items` gives each place's asset id and its image as a data: address (none when it has no
        // thumbnail). Not a Blob and its object URL: each of those is a call to the browser's own
        // process, about half a millisecond apiece on a busy machine, and a screen's worth is a long task.
        function thumbnailRun(albumID, offset, limit, order, signal) {
          const items = fetch('/api/thumbnails?album=' + encodeURIComponent(albumID) + '&offset=' + offset + '&limit=' + limit + '&order=' + order, { credentials: 'same-origin', signal })
            .then((response) => { if (!response.ok) throw new Error(response.statusText); return response.arrayBuffer(); })
            .then((buffer) => {
              const bytes = new Uint8Array(buffer);
              const end = bytes.indexOf(10);
              let at = end + 1;
              return JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))).items.map((item) => {
                const picture = item.size ? 'data:' + item.type + ';base64,' + base64(bytes.subarray(at, at + item.size)) : null;
                at += item.size;
                return { id: item.id, picture };
              });
            });
          return { items, until: offset + limit };
        }
        function base64(part) {
          if (part.toBase64) return part.toBase64();
          let text = '';
          for (let i = 0; i < part.length; i += 8192) text += String.fromCharCode(...part.subarray(i, i + 8192));
          return btoa(text);
        }

        // The grid draws only the rows in view, and keeps the rows it drew while they stay in view. Its
        // scroll height is mapped, not summed: a spacer of at most MAX pixels stands for every row, and
        // a scroll position is a fraction of the whole album, so the last asset of a million is as
        // reachable as the first; no step of it does work that grows with the album. The thumbnails of
        // the places in view that it lacks are asked for in one request (/api/thumbnails) and kept as
        // data: addresses, at most KEPT of them.
        function virtualGrid(scroller, spacer, rows, current, order, early, signal) {
          const MAX = 4000000, PAGE = GRID_PAGE, GAP = 4, KEPT = 1000, PAGES_KEPT = 200;
          const pages = new Map();
          const pictures = new Map();   // asset id → data: address of its thumbnail, or the address of its own
          const asked = new Set();      // asset ids whose thumbnails are on their way
          let drawn = new Map();        // row number → { node, state }
          let columns = 1, size = 120, rowCount = 0, frame = 0, stopped = false;
          const layout = () => {
            const width = scroller.clientWidth;
            columns = Math.max(2, Math.floor(width / 130));
            size = Math.floor((width - GAP * (columns - 1)) / columns);
            rowCount = Math.ceil(current().count / columns);
            spacer.style.height = Math.min(MAX, rowCount * (size + GAP)) + 'px';
            rows.style.height = scroller.clientHeight + 'px';
            rows.style.marginBottom = -scroller.clientHeight + 'px';
            for (const entry of drawn.values()) entry.node.remove();
            drawn = new Map();
          };
          const forget = (map, most, keep) => {
            for (const key of map.keys()) {
              if (map.size <= most) break;
              if (!keep.has(key)) map.delete(key);
            }
          };
          const fetchPage = (page) => {
            if (pages.has(page) || !current().id) return;
            pages.set(page, null);
            api('/api/album-assets?album=' + encodeURIComponent(current().id) + '&offset=' + page * PAGE + '&limit=' + PAGE + '&order=' + order, signal)
              .then((body) => { if (pages.has(page)) { pages.set(page, body.assets); schedule(); } })
              // Asked again a moment later: a page that failed once (a connection dropped) would
              // otherwise stay grey until the next scroll.
              .catch(() => setTimeout(() => { pages.delete(page); schedule(); }, 500));
          };
          const keep = (items) => {
            for (const item of items) {
              if (!stopped && !pictures.has(item.id)) pictures.set(item.id, item.picture || '/api/thumbnail?asset=' + encodeURIComponent(item.id));
            }
          };
          // The first screen's run, asked for with the album: places before `earlyUntil` wait for it.
          let earlyUntil = early ? early.until : 0;
          if (early) early.items.then(keep, () => {}).finally(() => { earlyUntil = 0; schedule(); });
          const fetchPictures = (from, to, ids) => {
            for (const id of ids) asked.add(id);
            thumbnailRun(current().id, from, to - from + 1, order, signal).items
              .then(keep)
              .catch(() => {})
              .finally(() => {
                if (stopped) return;  // the album was left: its request was cancelled
                // Places that moved meanwhile (the album changed): their assets' own addresses.
                for (const id of ids) { asked.delete(id); if (!pictures.has(id)) pictures.set(id, '/api/thumbnail?asset=' + encodeURIComponent(id)); }
                schedule();
              });
          };
          // A row's cells, each without its thumbnail: `give` gives them theirs.
          const makeRow = (r, assets) => {
            const row = el('div', { class: 'row' });
            const cells = assets.map((asset, c) => {
              const index = r * columns + c;
              const cell = el('a', { class: 'cell', href: '#/asset/' + encodeURIComponent(current().id) + '/' + index + ordered(order),
                'aria-label': asset ? (asset.name || 'item ' + (index + 1)) : 'item ' + (index + 1) });
              cell.style.width = size + 'px'; cell.style.height = size + 'px';
              row.append(cell);
              return { cell, asset, pictured: false };
            });
            return { node: row, cells };
          };
          // The first screen's cells get their thumbnails' addresses in one task: they are what the
          // page is opened for, and nothing else runs then. Scrolled to, cells get them at most FEW in
          // one task, the rest in the tasks right after, so a scroll never waits for a screen's worth.
          const FEW = 8;
          let waiting = [], nextTask = false, firstScreen = true;
          const tasks = new MessageChannel();
          tasks.port1.onmessage = () => { nextTask = false; give(); };
          const give = () => {
            if (stopped) return;
            for (const slot of waiting.splice(0, firstScreen ? waiting.length : FEW)) {
              const picture = pictures.get(slot.asset.id);
              if (slot.pictured || !picture || !slot.cell.isConnected) continue;
              slot.pictured = true;
              firstScreen = false;
              slot.cell.append(el('img', { src: picture, alt: slot.asset.name || '', width: size, height: size, decoding: 'async' }));
              if (slot.asset.kind === 'video') slot.cell.append(el('span', { class: 'badge' }, '▶ video'));
            }
            if (waiting.length && !nextTask) { nextTask = true; tasks.port2.postMessage(null); }
          };
          const draw = () => {
            frame = 0;
            if (stopped) return;
            const view = scroller.clientHeight, rowHeight = size + GAP;
            const total = rowCount * rowHeight;
            const room = Math.max(0, parseFloat(spacer.style.height) - view);
            const fraction = room > 0 ? Math.min(1, scroller.scrollTop / room) : 0;
            const top = fraction * Math.max(0, total - view);
            const first = Math.floor(top / rowHeight);
            const shift = -(top - first * rowHeight);
            const visible = Math.ceil(view / rowHeight) + 1;
            const count = current().count;
            const next = new Map(), shownPages = new Set(), shownIds = new Set();
            let missingFrom = -1, missingTo = -1;
            const missing = [];
            for (let r = first; r < Math.min(rowCount, first + visible); r++) {
              const assets = [];
              for (let index = r * columns; index < Math.min(count, (r + 1) * columns); index++) {
                const page = Math.floor(index / PAGE);
                shownPages.add(page);
                if (!pages.has(page)) fetchPage(page);
                const asset = (pages.get(page) || [])[index - page * PAGE];
                assets.push(asset);
                if (!asset) continue;
                shownIds.add(asset.id);
                if (!pictures.has(asset.id) && !asked.has(asset.id) && index >= earlyUntil) {
                  if (missingFrom < 0) missingFrom = index;
                  missingTo = index;
                  missing.push(asset.id);
                }
              }
              const state = assets.map((a) => (a ? a.id : '')).join(' ') + '@' + size;
              let entry = drawn.get(r);
              if (!entry || entry.state !== state) entry = Object.assign(makeRow(r, assets), { state });
              entry.node.style.top = (shift + (r - first) * rowHeight) + 'px';
              next.set(r, entry);
            }
            for (const [r, entry] of drawn) if (next.get(r) !== entry) entry.node.remove();
            // In the page's order as on the screen (links are tabbed through in it).
            let previous = null;
            for (const entry of next.values()) {
              if (entry.node.previousSibling !== previous || !entry.node.isConnected) rows.insertBefore(entry.node, previous ? previous.nextSibling : rows.firstChild);
              previous = entry.node;
            }
            drawn = next;
            waiting = [];
            for (const entry of next.values()) {
              for (const slot of entry.cells) if (slot.asset && !slot.pictured && pictures.has(slot.asset.id)) waiting.push(slot);
            }
            give();
            if (missing.length) fetchPictures(missingFrom, Math.min(missingTo, missingFrom + 199), missing);
            forget(pictures, KEPT, shownIds);
            forget(pages, PAGES_KEPT, shownPages);
          };
          const schedule = () => { if (!frame) frame = requestAnimationFrame(draw); };
          scroller.addEventListener('scroll', schedule, { passive: true });
          const resized = () => { layout(); schedule(); };
          window.addEventListener('resize', resized);
          return {
            // Drawn again from the album as it is now (`assets`: its first places, when known).
            reset(assets) { pages.clear(); if (assets) pages.set(0, assets); layout(); schedule(); },
            stop() {
              stopped = true; window.removeEventListener('resize', resized);
              pictures.clear();
            },
          };
        }

        async function assetPage(albumID, index, order = 'added') {
          const mine = turn;
          const body = await api('/api/album-assets?album=' + encodeURIComponent(albumID) + '&offset=' + index + '&limit=1&order=' + order);
          if (mine !== turn) return;
          const asset = body.assets[0];
          if (!asset) throw new Error('There is no item ' + (index + 1) + ' in this album.');
          where.textContent = body.album.title;
          const original = '/api/original?asset=' + encodeURIComponent(asset.id);
          // A photo shows its preview (about 2048 pixels: a HEIC or a raw file too); a video plays
          // its original, with range requests. The original stays the download link.
          const media = asset.kind === 'video'
            ? el('video', { src: original, controls: true, preload: 'metadata' })
            : el('img', { src: '/api/preview?asset=' + encodeURIComponent(asset.id), alt: asset.name || '' });
          if (asset.kind !== 'video') media.onerror = () => { media.onerror = null; media.src = '/api/thumbnail?asset=' + encodeURIComponent(asset.id); };
          const details = el('dl');
          const add = (label, value) => { if (value) details.append(el('dt', {}, label), el('dd', {}, String(value))); };
          add('Name', asset.name); add('Taken', asset.taken && asset.taken.replace('T', ' ').replace('Z', ' UTC'));
          add('Added', asset.added && asset.added.replace('T', ' ').replace('Z', ' UTC'));
          add('Camera', asset.camera); add('Place', asset.place);
          add('Size', (asset.width && asset.height ? asset.width + ' × ' + asset.height + ', ' : '') + bytes(asset.size));
          add('Format', asset.format); add('Length', asset.duration && asset.duration.toFixed(1) + ' s');
          const link = (i, text) => i >= 0 && i < body.album.count
            ? el('a', { href: '#/asset/' + encodeURIComponent(albumID) + '/' + i + ordered(order), rel: text === 'Previous' ? 'prev' : 'next' }, text) : el('span', { class: 'muted' }, text);
          const nav = el('div', { class: 'nav' }, link(index - 1, 'Previous'),
            el('a', { href: '#/album/' + encodeURIComponent(albumID) + ordered(order) }, 'Album'), link(index + 1, 'Next'),
            el('a', { href: original, download: asset.name || '' }, 'Download original'));
          show(nav, el('div', { class: 'photo' }, media, details));
          const keys = (event) => {
            if (event.key === 'ArrowLeft' && index > 0) location.hash = '#/asset/' + encodeURIComponent(albumID) + '/' + (index - 1) + ordered(order);
            if (event.key === 'ArrowRight' && index + 1 < body.album.count) location.hash = '#/asset/' + encodeURIComponent(albumID) + '/' + (index + 1) + ordered(order);
          };
          document.addEventListener('keydown', keys);
          teardown = () => document.removeEventListener('keydown', keys);
        }

        async function route() {
          const parts = location.hash.replace(/^#\\/?/, '').split('/').map(decodeURIComponent);
          const mine = ++turn;
          try {
            if (guest) {
              document.getElementById('home').textContent = 'Album';
              if (parts[0] === 'asset' && parts[1] === guest.album) await assetPage(parts[1], Number(parts[2] || 0), parts[3]);
              else await albumPage(guest.album, null, parts[0] === 'album' && parts[1] === guest.album ? parts[2] : 'added');
            } else if (parts[0] === 'album' && parts[1]) await albumPage(parts[1], null, parts[2]);
            else if (parts[0] === 'new' && parts[1]) await albumPage(null, parts[1]);
            else if (parts[0] === 'asset' && parts[1]) await assetPage(parts[1], Number(parts[2] || 0), parts[3]);
            else await albumsPage();
          } catch (error) {
            if (mine === turn) show(el('p', { role: 'alert' }, error.message));
          }
          if (mine === turn) main.focus({ preventScroll: true });
        }
        window.addEventListener('hashchange', route);
        route();
        """
}
