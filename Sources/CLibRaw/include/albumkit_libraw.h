// LibRaw, loaded at run time: only the picture of a raw file that stores no usable preview needs
// it, so `album` starts without loading it and AlbumKit builds without LibRaw's development files.
// The few declarations used are AlbumKit's own. LibRaw 0.20's C interface has no call that sets
// half-size decoding or the camera's white balance: libraw_loader.c writes those two fields of
// `libraw_data_t` at the offsets below, which are LibRaw 0.20's (RawDecoderLayoutTests compares
// them with `offsetof` compiled against libraw.h), and the load refuses any other version.
#ifndef ALBUMKIT_LIBRAW_H
#define ALBUMKIT_LIBRAW_H

#include <stddef.h>
#include <stdint.h>

/// Where LibRaw 0.20 keeps the fields AlbumKit reads or writes, in bytes from the start of
/// `libraw_data_t` on a 64-bit system.
enum {
    /// `sizes.raw_height`, `sizes.raw_width` (unsigned short): checked against
    /// `libraw_get_raw_height`/`libraw_get_raw_width` before anything is written.
    ALBUMKIT_LIBRAW_RAW_HEIGHT = 8,
    ALBUMKIT_LIBRAW_RAW_WIDTH = 10,
    /// `sizes.flip` (int): how LibRaw turns the picture (read after it is developed, to report it).
    ALBUMKIT_LIBRAW_FLIP = 40,
    /// `params.half_size` (int): each 2 × 2 block of the sensor's mosaic becomes one pixel.
    ALBUMKIT_LIBRAW_HALF_SIZE = 5180,
    /// `params.use_camera_wb` (int): the white balance the camera recorded.
    ALBUMKIT_LIBRAW_USE_CAMERA_WB = 5196,
    /// `params.output_bps` (int): checked against `libraw_set_output_bps`.
    ALBUMKIT_LIBRAW_OUTPUT_BPS = 5240,
    /// `params.no_auto_bright` (int): checked against `libraw_set_no_auto_bright`.
    ALBUMKIT_LIBRAW_NO_AUTO_BRIGHT = 5292,
    /// `params.max_raw_memory_mb` (unsigned): LibRaw's own bound on the memory of a raw's data.
    ALBUMKIT_LIBRAW_MAX_RAW_MEMORY_MB = 5348,
};

/// Loads libraw_r.so.20 (LibRaw built for threads; libraw.so.20 when it is missing) once and checks that it is LibRaw 0.20 (the layout above is that
/// version's). 0 when it is there, else -1 and `albumkit_libraw_load_error()` says why (naming the
/// Debian package, libraw20, or "unsupported LibRaw version").
int albumkit_libraw_load(void);
const char *albumkit_libraw_load_error(void);
/// The loaded LibRaw's version, e.g. "0.20.2-Release" (after a successful load).
const char *albumkit_libraw_version(void);

/// A raw file's picture as LibRaw developed it: 8-bit sRGB, three bytes a pixel, row after row
/// (`width * 3` bytes a row), already turned as the camera's orientation says.
typedef struct {
    /// Points into `owner` (LibRaw's developed image, freed by `albumkit_libraw_release`).
    const uint8_t *pixels;
    void *owner;
    int width;
    int height;
    /// LibRaw's `flip` that was applied (0 none, 3 half a turn, 5 a quarter turn anticlockwise,
    /// 6 a quarter turn clockwise).
    int flip;
    /// The sensor's size, before half-size decoding.
    int rawWidth;
    int rawHeight;
} albumkit_raw_picture;

/// The picture of the raw file open as `descriptor` (read whole with pread from its start; left
/// open) when `bytes` is NULL, else of the `count` bytes at `bytes`: demosaiced by LibRaw at half
/// size when `half` is 1 (a quarter of the pixels and of the memory), with the camera's white
/// balance, in sRGB. A file of more than `maxBytes` bytes or a sensor of more than `maxPixels`
/// pixels is refused before it is decoded, and a decode still running after `seconds` is stopped
/// at LibRaw's next step (the time spent waiting for another decode is not counted). One raw is
/// decoded at a time in a process: a call waits for the one before it. 0 with the picture in
/// `*picture` (release its pixels with `albumkit_libraw_release`), -1 with the reason in `error`.
int albumkit_libraw_decode(int descriptor, const void *bytes, size_t count, int half, int64_t maxBytes,
                           int64_t maxPixels, double seconds, albumkit_raw_picture *picture, char *error,
                           size_t errorSize);

void albumkit_libraw_release(albumkit_raw_picture *picture);

#endif
