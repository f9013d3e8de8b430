#!/usr/bin/env bash
# Regenerates the media corpus and exiftool's expectations for AlbumKitMedia's tests.
#
#   Scripts/media/make-corpus.sh            # writes Tests/AlbumKitMediaTests/Fixtures/{corpus,broken,expectations.json}
#
# Needs (Debian): imagemagick ffmpeg libheif-examples libimage-exiftool-perl python3
#   apt-get install -y imagemagick ffmpeg libheif-examples libimage-exiftool-perl
# Everything is generated here from synthetic pictures; nothing is downloaded.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures="$root/Tests/AlbumKitMediaTests/Fixtures"
helper="$root/Scripts/media/corpus.py"
for tool in exiftool ffmpeg heif-enc python3; do
  command -v "$tool" >/dev/null || { echo "make-corpus: $tool is missing (apt-get install -y imagemagick ffmpeg libheif-examples libimage-exiftool-perl)" >&2; exit 1; }
done
IM=/usr/bin/convert; [ -x "$IM" ] || IM=convert

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rm -rf "$fixtures/corpus" "$fixtures/broken"; mkdir -p "$fixtures/corpus" "$fixtures/broken"
c="$fixtures/corpus"
ET=(exiftool -q -q -overwrite_original)

# Sources: a tiny deterministic picture (16x12) and a few animation frames.
$IM -size 16x12 gradient:red-blue -strip "$work/base.png"
$IM -size 16x12 gradient:green-yellow -strip "$work/f2.png"
$IM -size 16x12 gradient:white-black -strip "$work/f3.png"
$IM "$work/base.png" -strip -quality 85 "$work/base.jpg"

# exif FILE ORIENTATION ORDER [GPS...] — writes a capture date, camera and orientation.
exif() {
  local file=$1 orientation=$2 order=$3; shift 3
  "${ET[@]}" -ExifByteOrder="$order" -Orientation#="$orientation" -Make="AlbumKit Labs" -Model="Corpus Cam $orientation" \
    -DateTimeOriginal="2024:05:0$orientation 10:20:30" "$@" "$file"
}
GPS_NE=(-GPSLatitude=48.8583 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E -GPSAltitude=35.5 -GPSAltitudeRef="Above Sea Level")
GPS_SW=(-GPSLatitude=33.8568 -GPSLatitudeRef=S -GPSLongitude=151.2153 -GPSLongitudeRef=W -GPSAltitude=12.25 -GPSAltitudeRef="Below Sea Level")
GPS_NOALT=(-GPSLatitude=35.6586 -GPSLatitudeRef=N -GPSLongitude=139.7454 -GPSLongitudeRef=E)

# JPEG: plain, progressive, orientations 1-8 alternating byte order, GPS variants, offsets, a thumbnail.
cp "$work/base.jpg" "$c/jpeg-plain.jpg"
$IM "$work/base.png" -strip -interlace Plane -quality 85 "$c/jpeg-progressive.jpg"
for o in 1 2 3 4 5 6 7 8; do
  order=Big-endian; [ $((o % 2)) -eq 0 ] && order=Little-endian
  cp "$work/base.jpg" "$c/jpeg-orientation-$o.jpg"
  if [ $o -le 4 ]; then exif "$c/jpeg-orientation-$o.jpg" $o $order -OffsetTimeOriginal="+02:00"
  else exif "$c/jpeg-orientation-$o.jpg" $o $order; fi
done
cp "$work/base.jpg" "$c/jpeg-gps-ne-be.jpg"; exif "$c/jpeg-gps-ne-be.jpg" 1 Big-endian "${GPS_NE[@]}" -OffsetTimeOriginal="-05:00"
cp "$work/base.jpg" "$c/jpeg-gps-sw-le.jpg"; exif "$c/jpeg-gps-sw-le.jpg" 6 Little-endian "${GPS_SW[@]}"
cp "$work/base.jpg" "$c/jpeg-gps-noalt.jpg"; exif "$c/jpeg-gps-noalt.jpg" 3 Little-endian "${GPS_NOALT[@]}" -OffsetTimeOriginal="+09:00"
$IM -size 8x6 gradient:blue-red -strip "$work/thumb.jpg"
cp "$work/base.jpg" "$c/jpeg-thumbnail.jpg"; exif "$c/jpeg-thumbnail.jpg" 8 Big-endian "-ThumbnailImage<=$work/thumb.jpg"
cp "$work/base.jpg" "$c/jpeg-createdate-only.jpg"; "${ET[@]}" -CreateDate="2023:12:31 23:59:59" -OffsetTimeDigitized="+01:00" "$c/jpeg-createdate-only.jpg"
cp "$c/jpeg-gps-ne-be.jpg" "$c/jpeg-wrong-extension.png"

# PNG: plain, grey+interlaced, EXIF (eXIf chunk) with GPS.
cp "$work/base.png" "$c/png-plain.png"
$IM "$work/base.png" -colorspace Gray -interlace PNG -strip "$c/png-gray-interlaced.png"
cp "$work/base.png" "$c/png-exif.png"; exif "$c/png-exif.png" 6 Big-endian "${GPS_NE[@]}"

# GIF: still and animated.
$IM "$work/base.png" -strip "$c/gif-still.gif"
$IM -delay 10 "$work/base.png" "$work/f2.png" "$work/f3.png" -loop 0 -strip "$c/gif-animated.gif"

# WebP: lossy, lossless, animated, lossy with EXIF (VP8X).
$IM "$work/base.png" -strip -quality 80 "$c/webp-lossy.webp"
$IM "$work/base.png" -strip -define webp:lossless=true "$c/webp-lossless.webp"
$IM -delay 10 "$work/base.png" "$work/f2.png" "$work/f3.png" -loop 0 -strip "$c/webp-animated.webp"
cp "$c/webp-lossy.webp" "$c/webp-exif.webp"; exif "$c/webp-exif.webp" 5 Little-endian "${GPS_SW[@]}"

# HEIC / HEIF / AVIF (heif-enc keeps the JPEG's EXIF as an Exif item).
heif-enc -q 40 "$work/base.jpg" -o "$c/heic-plain.heic" >/dev/null
cp "$work/base.jpg" "$work/exif6.jpg"; exif "$work/exif6.jpg" 6 Little-endian "${GPS_NE[@]}" -OffsetTimeOriginal="+02:00"
heif-enc -q 40 "$work/exif6.jpg" -o "$c/heic-exif.heic" >/dev/null
cp "$work/base.jpg" "$work/exif3.jpg"; exif "$work/exif3.jpg" 3 Big-endian "${GPS_NOALT[@]}"
heif-enc -q 40 "$work/exif3.jpg" -o "$c/heic-exif-be.heic" >/dev/null
python3 "$helper" heif-brand "$c/heic-exif-be.heic" "$c/heif-mif1.heif"
heif-enc -A -q 40 "$work/base.jpg" -o "$c/avif-plain.avif" >/dev/null
heif-enc -A -q 40 "$work/exif6.jpg" -o "$c/avif-exif.avif" >/dev/null

# TIFF: little- and big-endian, with EXIF and GPS; DNG; TIFF-based raw (CR2 header, NEF-like CFA).
$IM "$work/base.png" -strip -compress none "$c/tiff-le.tif"
$IM "$work/base.png" -strip -compress none -endian MSB "$c/tiff-be.tif"
$IM "$work/base.png" -strip -compress none -endian MSB "$c/tiff-exif.tif"; exif "$c/tiff-exif.tif" 8 Big-endian "${GPS_SW[@]}"
$IM "$work/base.png" -strip -compress none "TIFF:$c/dng-minimal.dng"
exif "$c/dng-minimal.dng" 1 Little-endian -DNGVersion="1 4 0 0" -UniqueCameraModel="AlbumKit Corpus Cam" "${GPS_NE[@]}"
cp "$c/tiff-le.tif" "$work/canon.tif"; "${ET[@]}" -Make=Canon -Model="Canon EOS Corpus" -DateTimeOriginal="2019:03:04 05:06:07" "$work/canon.tif"
python3 "$helper" cr2 "$work/canon.tif" "$c/raw-canon.cr2"
cp "$c/tiff-le.tif" "$work/nikon.tif"; exif "$work/nikon.tif" 6 Little-endian -Make="NIKON CORPORATION" -Model="NIKON D-CORPUS"
python3 "$helper" nef "$work/nikon.tif" "$c/raw-nikon.nef"

# BMP: v5 header (ImageMagick default), v3 header, top-down.
$IM "$work/base.png" -strip "$c/bmp-v5.bmp"
$IM "$work/base.png" -strip "BMP3:$c/bmp-v3.bmp"
python3 "$helper" bmp-topdown "$c/bmp-v3.bmp" "$c/bmp-topdown.bmp"

# Videos: MP4 (moov at end, faststart, rotated), MOV with GPS, M4V, 3GP.
FF=(ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=16x12:rate=5 -t 1 -c:v libx264 -pix_fmt yuv420p -bitexact)
"${FF[@]}" -metadata creation_time=2024-05-01T10:20:30Z "$c/mp4-plain.mp4"
"${FF[@]}" -metadata creation_time=2023-01-02T03:04:05Z -movflags +faststart -metadata location="+48.8583+002.2945/" "$c/mp4-faststart-gps.mp4"
"${FF[@]}" -metadata creation_time=2022-07-08T09:10:11Z "$c/mp4-rotated.mp4"; "${ET[@]}" -Rotation=90 "$c/mp4-rotated.mp4"
"${FF[@]}" -metadata creation_time=2024-02-29T12:00:00Z -metadata location="-33.8568+151.2153+012.000/" -f mov "$c/mov-gps.mov"
"${FF[@]}" -f mov "$c/mov-nodate.mov"
"${FF[@]}" -metadata creation_time=2021-11-12T13:14:15Z -brand "M4V " "$c/m4v-itunes.m4v"
"${FF[@]}" -metadata creation_time=2020-06-07T08:09:10Z -f 3gp "$c/3gp-phone.3gp"

# Broken variants: cuts at several points and structural byte damage in headers.
python3 "$helper" broken "$c" "$fixtures/broken"

# The oracle: exiftool's own reading, converted to AlbumKit's keys.
exiftool -json -n -G1 -a -r "$c" > "$work/exiftool.json"
python3 "$helper" expectations "$work/exiftool.json" "$fixtures/broken" > "$fixtures/expectations.json"

# WebM, Matroska, AVI and MPEG-TS, with ffprobe as their oracle (exiftool reads no size from MPEG-TS).
"$root/Scripts/media/make-containers.sh"
du -sh "$fixtures"; ls "$c" | wc -l; ls "$fixtures/broken" | wc -l
