// libtiff, loaded at run time (libvips depends on it, so it is on every machine that has
// libvips42): the TIFFs libvips refuses (separate planes, old-style JPEG, 12-bit samples, float
// samples without a photometric interpretation) are read through libtiff's RGBA interface, which
// converts every layout it knows to 8-bit RGBA.
#ifndef ALBUMKIT_TIFF_H
#define ALBUMKIT_TIFF_H

#include <stddef.h>

/// Loads libtiff once (`libtiff.so.6`, libtiff 4.5 or later). 0 when it is there, else -1 and
/// `albumkit_tiff_load_error()` says why (naming the Debian package, libtiff6).
int albumkit_tiff_load(void);
const char *albumkit_tiff_load_error(void);

/// The first image of the TIFF in the `count` bytes at `bytes` as 8-bit RGBA, top row first
/// (`TIFFReadRGBAImageOriented`): 0 with `*width` × `*height` pixels, 4 bytes each, in `*pixels`
/// (free with `albumkit_tiff_free`); -1 with libtiff's reason in `error`. An image of more than
/// `maxPixels` pixels is refused before it is decoded, and libtiff allocates no single block
/// larger than the image's RGBA pixels. The bytes are read, never changed, and not kept.
int albumkit_tiff_rgba(const void *bytes, size_t count, long long maxPixels, void **pixels, int *width, int *height,
                       char *error, size_t errorSize);
void albumkit_tiff_free(void *pixels);

#endif
