// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil), loaded at run time: only a
// video's poster frame needs them, so `album` starts without loading them and AlbumKit builds
// without their development files. The few declarations used are AlbumKit's own; where a field of
// one of FFmpeg's structures must be read, ffmpeg_loader.c writes down the layout it assumes and the
// load refuses any major version but the one that layout was checked against.
#ifndef ALBUMKIT_FFMPEG_H
#define ALBUMKIT_FFMPEG_H

#include <stddef.h>
#include <stdint.h>

/// Loads the four libraries once and checks their major versions (libavformat 59, libavcodec 59,
/// libswscale 6, libavutil 57: FFmpeg 5.x, Debian 12's). 0 when they are there, else -1 and
/// `albumkit_ffmpeg_load_error()` says why (naming the Debian package, or "unsupported FFmpeg
/// version").
int albumkit_ffmpeg_load(void);
const char *albumkit_ffmpeg_load_error(void);
/// The libraries' versions, e.g. "libavformat 59.27.100, libavcodec 59.37.100" (after a load).
const char *albumkit_ffmpeg_version(void);

/// One decoded frame of a video as 8-bit RGB, three bytes a pixel, row after row (`width * 3`
/// bytes a row), stored as the camera wrote it: `rotation` (0, 90, 180 or 270 degrees clockwise)
/// and `mirrored` (flipped left to right before the turn) say how to show it, and the pixel aspect
/// ratio `aspectNumerator`:`aspectDenominator` how wide one pixel is shown (1:1 for square pixels).
typedef struct {
    uint8_t *pixels;
    int width;
    int height;
    int rotation;
    int mirrored;
    int aspectNumerator;
    int aspectDenominator;
} albumkit_video_frame;

/// The frame near `fraction` (0–1) of the video's length, at least `minimumSeconds` in when it is
/// that long (a first frame is often black), read from the file open as `descriptor` (from its
/// start, with pread: the descriptor's offset is not moved; left open) when `bytes` is NULL, else
/// from the `count` bytes at `bytes`. A frame of more than `maxPixels` pixels is refused, and so is
/// a file that takes more than `seconds` to give one (a hostile file cannot hang the caller). 0 with
/// the frame in `*frame` (release its pixels with `albumkit_ffmpeg_release`), -1 with the reason in
/// `error`.
int albumkit_ffmpeg_poster_frame(int descriptor, const void *bytes, size_t count, double fraction,
                                 double minimumSeconds, int64_t maxPixels, double seconds,
                                 albumkit_video_frame *frame, char *error, size_t errorSize);

void albumkit_ffmpeg_release(albumkit_video_frame *frame);

#endif
