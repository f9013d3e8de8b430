#!/usr/bin/env bash
# Generates the WebM, Matroska, AVI and MPEG-TS part of AlbumKitMedia's test corpus, their broken
# variants, and ffprobe's reading of them merged into expectations.json.
#
#   Scripts/media/make-containers.sh       # run by make-corpus.sh; safe to run alone
#
# Needs (Debian): ffmpeg python3 (apt-get install -y ffmpeg). Every file is synthetic and tiny
# (1 s at 5 frames per second); nothing is downloaded.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures="$root/Tests/AlbumKitMediaTests/Fixtures"
helper="$root/Scripts/media/corpus.py"
for tool in ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { echo "make-containers: $tool is missing (apt-get install -y ffmpeg)" >&2; exit 1; }
done
c="$fixtures/corpus"; b="$fixtures/broken"
mkdir -p "$c" "$b"
rm -f "$c"/{webm,mkv,avi,ts,m2ts}-* "$b"/{webm,mkv,avi,ts,m2ts}-*
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# video SIZE: a one-second test pattern; audio: one second of tone.
video() { echo -f lavfi -i "testsrc=size=$1:rate=5" -t 1; }
audio=(-f lavfi -i "sine=frequency=440:sample_rate=4000" -t 1)
FF=(ffmpeg -v error -nostdin -y -bitexact)

# WebM: VP9 with a date; VP8 written to a pipe, as a live recorder does (unknown sizes), and that
# file without its duration.
"${FF[@]}" $(video 16x12) -c:v libvpx-vp9 -b:v 40k -metadata creation_time=2024-05-01T10:20:30Z "$c/webm-vp9.webm"
"${FF[@]}" $(video 16x12) -c:v libvpx -b:v 40k -metadata creation_time=2022-03-04T05:06:07Z -f webm pipe:1 > "$c/webm-vp8-streamed.webm"
python3 "$helper" matroska-without-duration "$c/webm-vp8-streamed.webm" "$c/webm-no-duration.webm"
# Matroska: H.264 24x18 (cropped macroblocks) after an audio track; HEVC 66x38 (the smallest x265 encodes) without a date.
"${FF[@]}" $(video 24x18) "${audio[@]}" -map 1:a -map 0:v -c:a pcm_u8 -c:v libx264 -pix_fmt yuv420p \
  -metadata creation_time=2023-01-02T03:04:05Z "$c/mkv-h264-audio.mkv"
"${FF[@]}" $(video 66x38) -c:v libx265 -x265-params log-level=none -pix_fmt yuv420p "$c/mkv-hevc.mkv"
# AVI: MPEG-4 part 2; Motion JPEG 24x18 after an audio stream.
"${FF[@]}" $(video 16x12) -c:v mpeg4 -q:v 31 "$c/avi-mpeg4.avi"
"${FF[@]}" $(video 24x18) "${audio[@]}" -map 1:a -map 0:v -c:a pcm_u8 -c:v mjpeg -q:v 31 "$c/avi-mjpeg-audio.avi"
# MPEG-TS: H.264 24x18 with AAC, MPEG-2, HEVC 66x38; M2TS (192-byte packets) with H.264.
"${FF[@]}" $(video 24x18) "${audio[@]}" -c:v libx264 -pix_fmt yuv420p -c:a aac -b:a 16k "$c/ts-h264-audio.ts"
"${FF[@]}" $(video 16x12) -c:v mpeg2video -q:v 31 "$c/ts-mpeg2.ts"
"${FF[@]}" $(video 66x38) -c:v libx265 -x265-params log-level=none -pix_fmt yuv420p "$c/ts-hevc.ts"
"${FF[@]}" $(video 16x12) -c:v libx264 -pix_fmt yuv420p -mpegts_m2ts_mode 1 -f mpegts "$c/m2ts-h264.m2ts"

python3 "$helper" broken-containers "$c" "$b"

# The oracle: ffprobe's reading (size, duration, date) and its container name.
files=("$c"/{webm,mkv,avi,ts,m2ts}-*)
for f in "${files[@]}"; do
  ffprobe -v error -of json -show_format -show_streams "$f" > "$work/$(basename "$f").json"
done
python3 "$helper" container-expectations "$fixtures/expectations.json" "$work" "$b"
du -ch "${files[@]}" "$b"/{webm,mkv,avi,ts,m2ts}-* | tail -1
