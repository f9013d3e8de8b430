// libvips, loaded at run time: only the commands that show pictures (thumbnails, previews) decode
// pixels, so `album` starts without loading libvips and the ~100 libraries it pulls in, and
// AlbumKit builds without libvips's development files. libvips's calls that take a list of named
// options (C varargs) cannot be made from Swift: each is wrapped here in a call with fixed
// arguments.
#ifndef ALBUMKIT_VIPS_H
#define ALBUMKIT_VIPS_H

#include <stddef.h>

#include "albumkit_heif.h"
#include "albumkit_tiff.h"

/// A libvips image (`VipsImage *`): released with `albumkit_vips_release`.
typedef struct albumkit_vips_image albumkit_vips_image;

/// Loads libvips once and starts it (`vips_init`), with the loaders libvips marks untrusted
/// (ImageMagick, and the formats no camera writes) blocked, no operation cache and at most
/// `threads` worker threads (0: libvips's default, one per core). 0 when it is there, else -1 and
/// `albumkit_vips_load_error()` says why (naming the Debian package, libvips42).
int albumkit_vips_load(int threads);
const char *albumkit_vips_load_error(void);
/// The libvips version, e.g. "8.14.1" (after a successful load).
const char *albumkit_vips_version(void);
/// 1 when libvips runs generated vector code (Orc), which the load turns off; 0 otherwise.
int albumkit_vips_vectors_enabled(void);

/// How a picture is fitted into `width` × `height`.
enum {
    /// Shrunk to fit inside, keeping its aspect ratio; never enlarged.
    ALBUMKIT_VIPS_FIT_DOWN = 0,
    /// Scaled to exactly `width` × `height`, aspect ratio not kept (a perceptual hash's grid).
    ALBUMKIT_VIPS_FIT_EXACT = 1,
};

/// The picture in the file open as `descriptor` (read from where it is; left open), or in `count`
/// bytes at `bytes`, oriented as its metadata says (EXIF orientation; HEIF `irot`/`imir`), its
/// colours converted to sRGB through its ICC profile (CMYK through a stock profile when it has
/// none), fitted as `fit` says; shrunk while it is decoded where the format allows (JPEG DCT
/// scaling, a HEIF file's thumbnail item, a TIFF's pyramid). `fail` 1 refuses a file with any decoding error (a cut-short scan), 0 shows what
/// decodes. The result is decoded into memory: it keeps neither the descriptor nor the bytes. NULL
/// on failure: `albumkit_vips_take_error()` says why.
albumkit_vips_image *albumkit_vips_thumbnail_descriptor(int descriptor, int width, int height, int fit, int fail);
albumkit_vips_image *albumkit_vips_thumbnail_bytes(const void *bytes, size_t count, int width, int height, int fit,
                                                  int fail);

/// `width` × `height` pixels of 8-bit RGB at `pixels` (three bytes a pixel, row after row; copied,
/// so the caller may free them at once) scaled to exactly `targetWidth` × `targetHeight`: a video's
/// frame, decoded by FFmpeg. NULL on failure.
albumkit_vips_image *albumkit_vips_thumbnail_rgb(const void *pixels, int width, int height, int targetWidth,
                                                int targetHeight);

/// `width` × `height` pixels of 8-bit samples at `pixels`, `bands` a pixel (1 grey, 2 grey with
/// alpha, 3 RGB, 4 RGBA; row after row; copied, so the caller may free them at once) fitted as `fit`
/// says into `targetWidth` × `targetHeight`, never enlarged: a picture AlbumKit decoded itself (a
/// BMP). NULL on failure.
albumkit_vips_image *albumkit_vips_thumbnail_pixels(const void *pixels, int width, int height, int bands,
                                                   int targetWidth, int targetHeight, int fit);

/// The image as 8-bit sRGB (or 8-bit grey when it is grey) without alpha (flattened on white): what
/// a JPEG or a PNG thumbnail holds. NULL on failure.
albumkit_vips_image *albumkit_vips_displayable(albumkit_vips_image *image);
/// The image as 8-bit sRGB, three bands even when it is grey, without alpha (flattened on white):
/// pictures of every kind side by side on one sheet. NULL on failure.
albumkit_vips_image *albumkit_vips_colour(albumkit_vips_image *image);
/// The image as 8-bit grey, one byte a pixel, without alpha (flattened on white). NULL on failure.
albumkit_vips_image *albumkit_vips_grey(albumkit_vips_image *image);

/// The image turned as EXIF orientation `orientation` (1–8) says (a thumbnail stored inside a
/// photo is stored as the sensor saw it; the photo's tag says how to turn it). NULL on failure.
albumkit_vips_image *albumkit_vips_oriented(albumkit_vips_image *image, int orientation);

int albumkit_vips_width(const albumkit_vips_image *image);
int albumkit_vips_height(const albumkit_vips_image *image);
int albumkit_vips_bands(const albumkit_vips_image *image);

/// The image encoded as a baseline JPEG of `quality` (1–100), no metadata kept: 0 with the bytes
/// in `*bytes` (free with `albumkit_vips_free`), -1 on failure.
int albumkit_vips_jpeg(albumkit_vips_image *image, int quality, void **bytes, size_t *count);
/// The image encoded as PNG with `textCount` text chunks (`keys[i]` = `values[i]`, Latin-1 keys
/// such as "Thumb::URI"), no other metadata: 0 with the bytes in `*bytes`, -1 on failure.
int albumkit_vips_png(albumkit_vips_image *image, const char *const *keys, const char *const *values, int textCount,
                      void **bytes, size_t *count);
/// The image's pixels, row after row, band after band (8-bit images): 0 with the bytes in
/// `*bytes`, -1 on failure.
int albumkit_vips_pixels(albumkit_vips_image *image, void **bytes, size_t *count);

/// `count` images laid out in rows of `across`, `gap` pixels apart on a white ground, each centred
/// in a cell the size of the largest. NULL on failure.
albumkit_vips_image *albumkit_vips_join(albumkit_vips_image *const *images, int count, int across, int gap);

/// A contact sheet's cell: `picture` (8-bit sRGB, at most `cellSize` on each side) centred in a
/// white `cellSize` × `cellSize` square, with `caption` below it: black text on white set by
/// libvips's `vips_text` (Pango markup: the caller escapes `&`, `<` and `>`), in `font` (e.g.
/// "sans 9"), wrapped at the cell's width. NULL on failure.
albumkit_vips_image *albumkit_vips_captioned(albumkit_vips_image *picture, const char *caption, const char *font,
                                            int cellSize);

void albumkit_vips_release(albumkit_vips_image *image);
void albumkit_vips_free(void *bytes);

/// The error libvips recorded on this thread's last failure, cleared; free with `albumkit_vips_free`.
char *albumkit_vips_take_error(void);

#endif
