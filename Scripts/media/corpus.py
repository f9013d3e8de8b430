#!/usr/bin/env python3
"""Helpers for make-corpus.sh: byte-level patches no Debian tool makes, broken
variants, and the conversion of exiftool's JSON into AlbumKit's metadata keys."""
import json, os, struct, sys


def read(path):
    with open(path, "rb") as f:
        return bytearray(f.read())


def write(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))


def tiff_ifd0(data):
    order = "<" if data[:2] == b"II" else ">"
    return order, struct.unpack(order + "I", data[4:8])[0]


def tiff_set_short(data, tag, value):
    order, ifd = tiff_ifd0(data)
    count = struct.unpack(order + "H", data[ifd:ifd + 2])[0]
    for i in range(count):
        e = ifd + 2 + 12 * i
        if struct.unpack(order + "H", data[e:e + 2])[0] == tag:
            struct.pack_into(order + "H", data, e + 8, value)
            return
    raise SystemExit("tag %#x not in IFD0" % tag)


def heif_brand(src, dst):
    """Rewrites the ftyp brands of a HEIC to plain 'mif1' (a generic HEIF)."""
    data = read(src)
    size = struct.unpack(">I", data[0:4])[0]
    ftyp = data[8:size].replace(b"heic", b"mif1")
    data[8:size] = ftyp
    write(dst, data)


def cr2(src, dst):
    """A TIFF with Canon's CR2 signature ('CR', version 2.0, raw IFD offset) at offset 8."""
    data = read(src)
    order, ifd = tiff_ifd0(data)
    if ifd < 16:  # move IFD0 to the end (its value offsets are absolute, so they stay valid)
        count = struct.unpack(order + "H", data[ifd:ifd + 2])[0]
        if len(data) % 2:
            data.append(0)
        moved = len(data)
        data += data[ifd:ifd + 2 + 12 * count + 4]
        struct.pack_into(order + "I", data, 4, moved)
    data[8:12] = b"CR\x02\x00"
    struct.pack_into(order + "I", data, 12, 0)
    write(dst, data)


def nef(src, dst):
    """A TIFF that looks like a Nikon raw: CFA photometric interpretation, NIKON make."""
    data = read(src)
    tiff_set_short(data, 0x0106, 32803)
    write(dst, data)


def bmp_topdown(src, dst):
    """Turns a bottom-up BMP3 into a top-down one (negative height, rows reversed)."""
    data = read(src)
    offset = struct.unpack("<I", data[10:14])[0]
    width, height = struct.unpack("<ii", data[18:26])
    bpp = struct.unpack("<H", data[28:30])[0]
    stride = (bpp * width + 31) // 32 * 4
    rows = [data[offset + r * stride: offset + (r + 1) * stride] for r in range(height)]
    data[offset:offset + stride * height] = b"".join(reversed(rows))
    struct.pack_into("<i", data, 22, -height)
    write(dst, data)


def iso_boxes(data):
    """Top-level (offset, size, type) of an ISO-BMFF file."""
    boxes, pos = [], 0
    while pos + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if size == 1:
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
        if size < 8:
            break
        boxes.append((pos, size, kind.decode("latin-1")))
        pos += size
    return boxes


def broken(corpus, out):
    """Cuts and structural damage; every result must be reported as corrupt."""
    picks = {
        "jpeg": "jpeg-gps-ne-be.jpg", "jpeg-progressive": "jpeg-progressive.jpg",
        "png": "png-exif.png", "gif": "gif-animated.gif", "webp": "webp-exif.webp",
        "webp-lossless": "webp-lossless.webp", "heic": "heic-exif.heic", "avif": "avif-plain.avif",
        "tiff": "tiff-exif.tif", "tiff-le": "tiff-le.tif", "dng": "dng-minimal.dng", "bmp": "bmp-v5.bmp",
        "mp4": "mp4-plain.mp4", "mp4-faststart": "mp4-faststart-gps.mp4", "mov": "mov-gps.mov",
        "3gp": "3gp-phone.3gp",
    }
    # Cutting the last byte of these loses no image data, and decoders read them (Docs/media.md):
    # the GIF loses only its trailer, the little-endian TIFF only a tag value at its end.
    tolerated = {("gif", "cut-last-byte"), ("tiff-le", "cut-last-byte")}
    for name, file in picks.items():
        data = read(os.path.join(corpus, file))
        ext = os.path.splitext(file)[1]
        for label, cut in (("cut-header", 30), ("cut-half", len(data) // 2), ("cut-last-byte", len(data) - 1)):
            if (name, label) not in tolerated:
                write(os.path.join(out, "%s-%s%s" % (name, label, ext)), data[:cut])
    def damage(file, label, patch):
        data = read(os.path.join(corpus, file))
        patch(data)
        base, ext = os.path.splitext(file)
        write(os.path.join(out, "%s-%s%s" % (base.split("-")[0], label, ext)), data)

    def jpeg_segment_length(d):
        d[4:6] = b"\xff\xff"            # first segment after SOI claims 65535 bytes
    def jpeg_no_sof(d):
        i = d.find(b"\xff\xc0")
        if i < 0:
            i = d.find(b"\xff\xc2")
        d[i + 1] = 0xEF                 # the frame header becomes an APP15 segment
    def jpeg_two_soi(d):
        d[0:4] = b"\xff\xd8\xff\xd8"    # SOI followed by a second SOI (libjpeg refuses it)
    def png_crc(d):
        d[16] ^= 0x01                   # IHDR width changes, its CRC no longer matches
    def png_no_iend(d):
        del d[-12:]
    def gif_no_image(d):
        palette = 3 << ((d[10] & 7) + 1) if d[10] & 0x80 else 0
        del d[13 + palette:]            # the screen descriptor and palette, then only the trailer
        d.append(0x3B)
    def riff_size(d):
        struct.pack_into("<I", d, 4, struct.unpack("<I", d[4:8])[0] + 1000)
    def iso_box_size(kind, value):
        def patch(d):
            for off, size, k in iso_boxes(d):
                if k == kind:
                    struct.pack_into(">I", d, off, value)
                    return
            raise SystemExit("no %s box" % kind)
        return patch
    def iso_rename(kind):
        def patch(d):
            for off, size, k in iso_boxes(d):
                if k == kind:
                    d[off + 4:off + 8] = b"free"
                    return
            raise SystemExit("no %s box" % kind)
        return patch
    def tiff_ifd_outside(d):
        order = "<" if d[:2] == b"II" else ">"
        struct.pack_into(order + "I", d, 4, 0x7FFFFFF0)
    def tiff_ifd_loop(d):
        order, ifd = tiff_ifd0(d)
        count = struct.unpack(order + "H", d[ifd:ifd + 2])[0]
        struct.pack_into(order + "I", d, ifd + 2 + 12 * count, ifd)
    def bmp_pixels(d):
        struct.pack_into("<I", d, 10, 0x7FFFFFF0)

    damage("jpeg-gps-ne-be.jpg", "segment-length", jpeg_segment_length)
    damage("jpeg-progressive.jpg", "no-frame-header", jpeg_no_sof)
    damage("jpeg-plain.jpg", "two-soi", jpeg_two_soi)
    damage("png-exif.png", "bad-crc", png_crc)
    damage("png-plain.png", "no-iend", png_no_iend)
    damage("gif-animated.gif", "no-image", gif_no_image)
    damage("webp-lossy.webp", "riff-size", riff_size)
    damage("heic-exif.heic", "meta-size", iso_box_size("meta", 0x7FFFFFF0))
    damage("heic-plain.heic", "no-meta", iso_rename("meta"))
    damage("mov-nodate.mov", "no-moov", iso_rename("moov"))
    damage("avif-exif.avif", "meta-size", iso_box_size("meta", 0xFFFFFFF0))
    damage("mp4-plain.mp4", "moov-size", iso_box_size("moov", 0xFFFFFFF0))
    damage("mp4-faststart-gps.mp4", "moov-largesize", iso_box_size("moov", 1))
    damage("mov-gps.mov", "mdat-size", iso_box_size("mdat", 0x7FFFFFF0))
    damage("tiff-exif.tif", "ifd-outside", tiff_ifd_outside)
    damage("tiff-le.tif", "ifd-loop", tiff_ifd_loop)
    damage("bmp-v3.bmp", "pixels-outside", bmp_pixels)


FORMATS = {"JPEG": "jpeg", "PNG": "png", "GIF": "gif", "WEBP": "webp", "Extended WEBP": "webp", "HEIC": "heic", "HEIF": "heif",
           "AVIF": "avif", "TIFF": "tiff", "DNG": "dng", "BMP": "bmp", "MP4": "mp4", "MOV": "mov",
           "M4V": "m4v", "3GP": "3gp"}
RAW = {"CR2", "NEF", "ARW", "PEF", "ORF", "RW2", "SRW", "ERF", "3FR", "NRW", "SR2", "CR3"}


def valid_date(value):
    return isinstance(value, str) and len(value) >= 19 and not value.startswith("0000")


def iso_date(value, offset=None):
    date = value[:10].replace(":", "-") + "T" + value[11:19]
    return date + (offset or "")


def expectation(t):
    filetype = t["File:FileType"]
    fmt = "raw" if filetype in RAW else FORMATS[filetype]
    video = fmt in ("mp4", "mov", "m4v", "3gp")
    e = {"format": fmt, "kind": "video" if video else "photo"}
    first = lambda *keys: next((t[k] for k in keys if k in t), None)
    if video:
        w, h = first("Track1:ImageWidth"), first("Track1:ImageHeight")
        # exiftool -n prints tkhd's 16.16 height raw when the track's matrix has no scaling field set.
        if isinstance(h, int) and h >= 65536:
            h //= 65536
        if isinstance(w, int) and w >= 65536:
            w //= 65536
        if t.get("Composite:Rotation") in (90, 270):
            w, h = h, w
        created = first("QuickTime:CreateDate")
        if valid_date(created):
            e["captureDate"] = iso_date(created, "Z")
        duration = first("QuickTime:Duration")
        if duration:
            e["duration"] = duration
    else:
        w = first("File:ImageWidth", "PNG:ImageWidth", "GIF:ImageWidth", "RIFF:ImageWidth", "IFD0:ImageWidth",
                  "QuickTime:ImageWidth")
        h = first("File:ImageHeight", "PNG:ImageHeight", "GIF:ImageHeight", "RIFF:ImageHeight", "IFD0:ImageHeight",
                  "QuickTime:ImageHeight")
        orientation = t.get("IFD0:Orientation")
        if isinstance(orientation, int) and 1 <= orientation <= 8:
            e["orientation"] = orientation
            if orientation >= 5:
                w, h = h, w
        original, offset = t.get("ExifIFD:DateTimeOriginal"), t.get("ExifIFD:OffsetTimeOriginal")
        if not valid_date(original):
            original, offset = t.get("ExifIFD:CreateDate"), t.get("ExifIFD:OffsetTimeDigitized")
        if valid_date(original):
            e["captureDate"] = iso_date(original, offset)
        for key, tag in (("make", "IFD0:Make"), ("model", "IFD0:Model")):
            if isinstance(t.get(tag), str) and t[tag].strip():
                e[key] = t[tag].strip()
    if w is not None:
        e["width"] = w
    if h is not None:
        e["height"] = h
    for key, tag in (("latitude", "Composite:GPSLatitude"), ("longitude", "Composite:GPSLongitude"),
                     ("altitude", "Composite:GPSAltitude")):
        if isinstance(t.get(tag), (int, float)):
            e[key] = t[tag]
    return e


def expectations(exiftool_json, broken_dir):
    result = {}
    for t in json.load(open(exiftool_json)):
        result["corpus/" + os.path.basename(t["SourceFile"])] = expectation(t)
    for name in sorted(os.listdir(broken_dir)):
        result["broken/" + name] = {"error": "corrupt"}
    print(json.dumps(result, indent=1, sort_keys=True))


def ebml_header(data, pos):
    """(id, size or None, header length) of the EBML element at pos."""
    first = data[pos]
    id_len = 8 - first.bit_length() + 1
    ident = int.from_bytes(data[pos:pos + id_len], "big")
    s = pos + id_len
    size_len = 8 - data[s].bit_length() + 1
    raw = int.from_bytes(data[s:s + size_len], "big") & ((1 << (7 * size_len)) - 1)
    size = None if raw == (1 << (7 * size_len)) - 1 else raw
    return ident, size, id_len + size_len, size_len


def segment_children(data):
    """(offset, id, size, header length, size length) of the Segment's top-level elements."""
    ident, size, head, _ = ebml_header(data, 0)
    pos = head + size
    ident, size, head, _ = ebml_header(data, pos)
    assert ident == 0x18538067, "no Segment after the EBML header"
    pos += head
    out = []
    while pos < len(data):
        ident, size, head, size_len = ebml_header(data, pos)
        out.append((pos, ident, size, head, size_len))
        if size is None:
            break
        pos += head + size
    return out


def riff_chunks(data, start, end):
    """(offset, id, size, list type) of the RIFF chunks tiling data[start:end]."""
    out, pos = [], start
    while pos + 8 <= end:
        kind = data[pos:pos + 4].decode("latin-1")
        size = struct.unpack("<I", data[pos + 4:pos + 8])[0]
        out.append((pos, kind, size, data[pos + 8:pos + 12].decode("latin-1") if kind in ("RIFF", "LIST") else None))
        pos += 8 + size + (size & 1)
    return out


def matroska_without_duration(src, dst):
    """A Matroska file whose Info/Duration element became a Void element of the same length
    (as live recorders leave it when they stop without finalising the file)."""
    data = read(src)
    for pos, ident, size, head, size_len in segment_children(data):
        if ident == 0x1549A966:
            i, end = pos + head, pos + head + size
            while i < end:
                child, child_size, child_head, _ = ebml_header(data, i)
                if child == 0x4489:
                    total = child_head + child_size
                    data[i:i + total] = bytes([0xEC, 0x80 | (total - 2)]) + bytes(total - 2)
                    write(dst, data)
                    return
                i += child_head + child_size
    raise SystemExit("no Info/Duration in %s" % src)


def broken_containers(corpus, out):
    """Cuts and damage for the WebM/Matroska/AVI/MPEG-TS corpus; every result must be corrupt."""
    def cuts(file, labels=("cut-header", "cut-half", "cut-last-byte")):
        data = read(os.path.join(corpus, file))
        base, ext = os.path.splitext(file)
        half = len(data) // 2
        if ext in (".ts", ".m2ts"):
            half |= 1  # an odd length is never a whole number of packets
        points = {"cut-header": 30, "cut-half": half, "cut-last-byte": len(data) - 1}
        for label in labels:
            write(os.path.join(out, "%s-%s%s" % (base.split("-")[0], label, ext)), data[:points[label]])

    def damage(file, label, patch):
        data = read(os.path.join(corpus, file))
        patch(data)
        base, ext = os.path.splitext(file)
        write(os.path.join(out, "%s-%s%s" % (base.split("-")[0], label, ext)), data)

    def rename_tracks(d):
        for pos, ident, size, head, size_len in segment_children(d):
            if ident == 0x1654AE6B:
                d[pos + 3] ^= 0x01      # an unknown element ID: the track list is gone
                return
        raise SystemExit("no Tracks")

    def grow_cluster(d):
        for pos, ident, size, head, size_len in segment_children(d):
            if ident == 0x1F43B675:
                s = pos + head - size_len
                value = (1 << (7 * size_len)) - 2      # the largest known size of the same width
                d[s:s + size_len] = (value | 1 << (7 * size_len)).to_bytes(size_len, "big")
                return
        raise SystemExit("no Cluster")

    def riff_size(d):
        struct.pack_into("<I", d, 4, struct.unpack("<I", d[4:8])[0] + 1000)

    def rename_movi(d):
        for pos, kind, size, list_type in riff_chunks(d, 12, len(d)):
            if list_type == "movi":
                d[pos + 8:pos + 12] = b"mova"
                return
        raise SystemExit("no movi")

    def lost_sync(d):
        d[188 * 5] = 0x00

    def pat_crc(d):
        for pos in range(0, len(d), 188):
            if d[pos + 1] & 0x1F == 0 and d[pos + 2] == 0:   # PID 0: every copy of the PAT
                d[pos + 12] ^= 0xFF

    cuts("webm-vp9.webm")
    cuts("webm-vp8-streamed.webm", ("cut-header",))
    cuts("mkv-h264-audio.mkv")
    cuts("avi-mpeg4.avi")
    cuts("ts-h264-audio.ts")
    cuts("m2ts-h264.m2ts")
    damage("webm-vp9.webm", "no-tracks", rename_tracks)
    damage("mkv-h264-audio.mkv", "cluster-size", grow_cluster)
    damage("avi-mpeg4.avi", "riff-size", riff_size)
    damage("avi-mjpeg-audio.avi", "no-movi", rename_movi)
    damage("ts-mpeg2.ts", "lost-sync", lost_sync)
    damage("ts-h264-audio.ts", "pat-crc", pat_crc)


CONTAINERS = {"webm": "webm", "mkv": "mkv", "avi": "avi", "ts": "ts", "m2ts": "m2ts"}


def container_expectations(expectations_path, probe_dir, broken_dir):
    """Merges ffprobe's reading of the container corpus (and its broken variants) into expectations.json."""
    result = json.load(open(expectations_path)) if os.path.exists(expectations_path) else {}
    for key in [k for k in result if k.split("/")[1].split("-")[0] in CONTAINERS]:
        del result[key]
    for name in sorted(os.listdir(probe_dir)):
        probe = json.load(open(os.path.join(probe_dir, name)))
        file = name[:-len(".json")]
        video = next(s for s in probe["streams"] if s["codec_type"] == "video")
        e = {"format": CONTAINERS[file.split("-")[0]], "kind": "video", "width": video["width"],
             "height": video["height"]}
        if "no-duration" not in file:   # the file stores none; ffprobe estimates one from timestamps
            e["duration"] = float(video.get("duration", probe["format"]["duration"]))
        created = probe["format"].get("tags", {}).get("creation_time")
        if created:
            e["captureDate"] = created[:19] + "Z"
        result["corpus/" + file] = e
    for name in sorted(os.listdir(broken_dir)):
        if name.split("-")[0] in CONTAINERS:
            result["broken/" + name] = {"error": "corrupt"}
    with open(expectations_path, "w") as f:
        f.write(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"heif-brand": heif_brand, "cr2": cr2, "nef": nef, "bmp-topdown": bmp_topdown, "broken": broken,
     "expectations": expectations, "broken-containers": broken_containers,
     "container-expectations": container_expectations, "matroska-without-duration": matroska_without_duration}[command](*args)
