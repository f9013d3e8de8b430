// libheif, loaded at run time (libvips depends on it, so it is on every machine that has
// libvips42): the HEIF files libvips 8.14's loader refuses ("bad image dimensions on decode", as
// for some cameras' 10-bit `.hif` grids) that libheif itself decodes are read through libheif's
// own API.
#ifndef ALBUMKIT_HEIF_H
#define ALBUMKIT_HEIF_H

#include <stddef.h>

/// Loads libheif once (`libheif.so.1`). 0 when it is there, else -1 and `albumkit_heif_load_error()`
/// says why (naming the Debian package, libheif1).
int albumkit_heif_load(void);
const char *albumkit_heif_load_error(void);

/// The primary image of the HEIF file in the `count` bytes at `bytes` as 8-bit RGB, top row first,
/// turned and mirrored as its `irot`/`imir` say: 0 with `*width` × `*height` pixels, 3 bytes each,
/// in `*pixels` (free with `albumkit_heif_free`); -1 with libheif's reason in `error`. An image of
/// more than `maxPixels` pixels is refused before it is decoded. The bytes are not kept.
int albumkit_heif_rgb(const void *bytes, size_t count, long long maxPixels, void **pixels, int *width, int *height,
                      char *error, size_t errorSize);
void albumkit_heif_free(void *pixels);

#endif
