#include "albumkit_ffmpeg.h"

// Only Linux loads FFmpeg at run time; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// FFmpeg's names for what is declared opaquely here (its headers are not needed to build).
typedef struct AVFormatContext AVFormatContext;
typedef struct AVIOContext AVIOContext;
typedef struct AVStream AVStream;
typedef struct AVCodec AVCodec;
typedef struct AVCodecContext AVCodecContext;
typedef struct AVCodecParameters AVCodecParameters;
typedef struct AVPacket AVPacket;
typedef struct AVFrame AVFrame;
typedef struct AVDictionary AVDictionary;
typedef struct SwsContext SwsContext;
typedef struct {
    int num, den;
} AVRational;

// The fields read (or, for `pb`, written) directly, at the offsets of FFmpeg 5.x on a 64-bit
// system (libavformat 59, libavcodec 59, libavutil 57: the majors `load` accepts, checked against
// their public headers). Each major release may move them; another major is refused at load
// rather than read at the wrong place, and each structure read is checked against what a function
// said about it before it is believed (`videoStream`).
enum {
    // AVFormatContext: av_class, iformat, oformat, priv_data, then `AVIOContext *pb`; `unsigned
    // nb_streams` after `int ctx_flags`, `AVStream **streams`, `char *url`, `int64_t start_time`,
    // `int64_t duration` (microseconds).
    FORMAT_PB = 32,
    FORMAT_NB_STREAMS = 44,
    FORMAT_STREAMS = 48,
    FORMAT_START_TIME = 64,
    FORMAT_DURATION = 72,
    // AVStream: `int index` first; `AVCodecParameters *codecpar` after `AVPacket attached_pic`
    // (104 bytes from offset 80), the side data, `event_flags` and `r_frame_rate`.
    STREAM_INDEX = 0,
    STREAM_CODECPAR = 208,
    // AVCodecParameters: `codec_type` first; `width`, `height`; `color_range`; `color_space`.
    PARAMETERS_TYPE = 0,
    PARAMETERS_WIDTH = 56,
    PARAMETERS_HEIGHT = 60,
    PARAMETERS_COLOR_RANGE = 76,
    PARAMETERS_COLOR_SPACE = 88,
    // AVPacket: buf, pts, dts, data, `int size`, `int stream_index`.
    PACKET_STREAM_INDEX = 36,
    // AVFrame: `uint8_t *data[8]`, `int linesize[8]`, extended_data, `int width`, `int height`,
    // nb_samples, `int format`: the top of the structure, unchanged since libavutil 55.
    FRAME_DATA = 0,
    FRAME_LINESIZE = 64,
    FRAME_WIDTH = 104,
    FRAME_HEIGHT = 108,
    FRAME_FORMAT = 116,
    // AVIOContext: av_class, then `unsigned char *buffer` (which libavformat may have replaced).
    IO_BUFFER = 8,
};

// FFmpeg's constants (from its public headers).
#define MEDIA_VIDEO 0
#define PACKET_DISPLAY_MATRIX 5
#define SEEK_SIZE_QUERY 0x10000
#define SEEK_FORCE 0x20000
// AVSEEK_FLAG_BYTE: a position in bytes, not a timestamp.
#define SEEK_TO_BYTE 2
#define PIXEL_RGB24 2
#define COLOR_RANGE_FULL 2
#define SWS_BICUBIC 4
#define SWS_FULL_CHROMA 0x2000
#define SWS_ACCURATE_ROUNDING 0x40000
#define LOG_QUIET (-8)
#define TAG(a, b, c, d) (-(int)((unsigned)(a) | ((unsigned)(b) << 8) | ((unsigned)(c) << 16) | ((unsigned)(d) << 24)))
#define ERROR_EOF TAG('E', 'O', 'F', ' ')
#define ERROR_EXIT TAG('E', 'X', 'I', 'T')
#define NO_TIME INT64_MIN

static struct {
    unsigned (*avutil_version)(void);
    void *(*av_malloc)(size_t);
    void (*av_free)(void *);
    AVFrame *(*av_frame_alloc)(void);
    void (*av_frame_free)(AVFrame **);
    int (*av_dict_set)(AVDictionary **, const char *, const char *, int);
    void (*av_dict_free)(AVDictionary **);
    double (*av_display_rotation_get)(const int32_t *);
    void (*av_log_set_level)(int);
    int (*av_strerror)(int, char *, size_t);

    unsigned (*avcodec_version)(void);
    AVCodecContext *(*avcodec_alloc_context3)(const AVCodec *);
    void (*avcodec_free_context)(AVCodecContext **);
    int (*avcodec_parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*avcodec_open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*avcodec_send_packet)(AVCodecContext *, const AVPacket *);
    int (*avcodec_receive_frame)(AVCodecContext *, AVFrame *);
    void (*avcodec_flush_buffers)(AVCodecContext *);
    AVPacket *(*av_packet_alloc)(void);
    void (*av_packet_free)(AVPacket **);
    void (*av_packet_unref)(AVPacket *);

    unsigned (*avformat_version)(void);
    AVFormatContext *(*avformat_alloc_context)(void);
    void (*avformat_free_context)(AVFormatContext *);
    int (*avformat_open_input)(AVFormatContext **, const char *, const void *, AVDictionary **);
    int (*avformat_find_stream_info)(AVFormatContext *, AVDictionary **);
    int (*av_find_best_stream)(AVFormatContext *, int, int, int, const AVCodec **, int);
    void (*avformat_close_input)(AVFormatContext **);
    AVIOContext *(*avio_alloc_context)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                                       int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*avio_context_free)(AVIOContext **);
    int (*av_read_frame)(AVFormatContext *, AVPacket *);
    int (*avformat_seek_file)(AVFormatContext *, int, int64_t, int64_t, int64_t, int);
    uint8_t *(*av_stream_get_side_data)(const AVStream *, int, size_t *);
    AVRational (*av_guess_sample_aspect_ratio)(AVFormatContext *, AVStream *, AVFrame *);

    unsigned (*swscale_version)(void);
    SwsContext *(*sws_getContext)(int, int, int, int, int, int, int, void *, void *, const double *);
    int (*sws_scale)(SwsContext *, const uint8_t *const[], const int[], int, int, uint8_t *const[], const int[]);
    void (*sws_freeContext)(SwsContext *);
    int (*sws_isSupportedInput)(int);
    const int *(*sws_getCoefficients)(int);
    int (*sws_setColorspaceDetails)(SwsContext *, const int[4], int, const int[4], int, int, int, int);
} av;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;
static char versions[256];

#define SYMBOL(name) {#name, (void **)&av.name}

/// One of the four libraries: `names` tried in order, its symbols bound, its major version checked.
static int loadOne(const char *const *names, size_t nameCount, const albumkit_symbol *symbols, size_t symbolCount,
                   const char *what, const char *package, unsigned (*const *version)(void), unsigned major,
                   char *error, size_t errorSize) {
    if (albumkit_load_library(names, nameCount, symbols, symbolCount, what, package, error, errorSize) == NULL) {
        return -1;
    }
    unsigned found = (*version)();
    if (found >> 16 != major) {
        snprintf(error, errorSize,
                 "unsupported FFmpeg version: %s %u.%u.%u is loaded, and AlbumKit reads FFmpeg 5 (%s %u); install %s",
                 what, found >> 16, (found >> 8) & 0xff, found & 0xff, what, major, package);
        return -1;
    }
    return 0;
}

static int load(char *error, size_t errorSize) {
    // The versioned name first (the one the Debian package installs); then the development
    // package's link, so that another FFmpeg is reported as the wrong version, not as missing.
    static const char *const util[] = {"libavutil.so.57", "libavutil.so"};
    static const char *const codec[] = {"libavcodec.so.59", "libavcodec.so"};
    static const char *const format[] = {"libavformat.so.59", "libavformat.so"};
    static const char *const scale[] = {"libswscale.so.6", "libswscale.so"};
    const albumkit_symbol utilSymbols[] = {
        SYMBOL(avutil_version),   SYMBOL(av_malloc),   SYMBOL(av_free),
        SYMBOL(av_frame_alloc),   SYMBOL(av_frame_free), SYMBOL(av_dict_set),
        SYMBOL(av_dict_free),     SYMBOL(av_display_rotation_get), SYMBOL(av_log_set_level),
        SYMBOL(av_strerror),
    };
    const albumkit_symbol codecSymbols[] = {
        SYMBOL(avcodec_version),      SYMBOL(avcodec_alloc_context3), SYMBOL(avcodec_free_context),
        SYMBOL(avcodec_parameters_to_context), SYMBOL(avcodec_open2), SYMBOL(avcodec_send_packet),
        SYMBOL(avcodec_receive_frame), SYMBOL(avcodec_flush_buffers), SYMBOL(av_packet_alloc),
        SYMBOL(av_packet_free),       SYMBOL(av_packet_unref),
    };
    const albumkit_symbol formatSymbols[] = {
        SYMBOL(avformat_version),     SYMBOL(avformat_alloc_context), SYMBOL(avformat_free_context),
        SYMBOL(avformat_open_input),  SYMBOL(avformat_find_stream_info), SYMBOL(av_find_best_stream),
        SYMBOL(avformat_close_input), SYMBOL(avio_alloc_context),    SYMBOL(avio_context_free),
        SYMBOL(av_read_frame),        SYMBOL(avformat_seek_file),    SYMBOL(av_stream_get_side_data),
        SYMBOL(av_guess_sample_aspect_ratio),
    };
    const albumkit_symbol scaleSymbols[] = {
        SYMBOL(swscale_version), SYMBOL(sws_getContext),       SYMBOL(sws_scale),
        SYMBOL(sws_freeContext), SYMBOL(sws_isSupportedInput), SYMBOL(sws_getCoefficients),
        SYMBOL(sws_setColorspaceDetails),
    };
#define COUNT(array) (sizeof array / sizeof array[0])
    if (loadOne(util, COUNT(util), utilSymbols, COUNT(utilSymbols), "libavutil", "libavutil57", &av.avutil_version,
                57, error, errorSize) != 0 ||
        loadOne(codec, COUNT(codec), codecSymbols, COUNT(codecSymbols), "libavcodec", "libavcodec59",
                &av.avcodec_version, 59, error, errorSize) != 0 ||
        loadOne(format, COUNT(format), formatSymbols, COUNT(formatSymbols), "libavformat", "libavformat59",
                &av.avformat_version, 59, error, errorSize) != 0 ||
        loadOne(scale, COUNT(scale), scaleSymbols, COUNT(scaleSymbols), "libswscale", "libswscale6",
                &av.swscale_version, 6, error, errorSize) != 0) {
        return -1;
    }
#undef COUNT
    // A damaged file is reported to the caller as an error naming it, not printed on standard error.
    av.av_log_set_level(LOG_QUIET);
    unsigned f = av.avformat_version(), c = av.avcodec_version(), s = av.swscale_version(), u = av.avutil_version();
    snprintf(versions, sizeof versions, "libavformat %u.%u.%u, libavcodec %u.%u.%u, libswscale %u.%u.%u, libavutil %u.%u.%u",
             f >> 16, (f >> 8) & 0xff, f & 0xff, c >> 16, (c >> 8) & 0xff, c & 0xff, s >> 16, (s >> 8) & 0xff,
             s & 0xff, u >> 16, (u >> 8) & 0xff, u & 0xff);
    return 0;
}

int albumkit_ffmpeg_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_ffmpeg_load_error(void) { return albumkit_library_error(&library); }

const char *albumkit_ffmpeg_version(void) { return versions; }

// Every function below is reached only after a successful load (the Swift side loads first).

#define FIELD ALBUMKIT_FIELD

/// What libavformat reads from: the open file (with pread, from its start) or bytes in memory.
typedef struct {
    int descriptor;
    const uint8_t *bytes;
    int64_t size;
    int64_t position;
    double deadline;
    int timedOut;
    int readError;
} source;

static int readPacket(void *opaque, uint8_t *buffer, int size) {
    source *from = opaque;
    if (albumkit_monotonic_seconds() > from->deadline) {
        from->timedOut = 1;
        return ERROR_EXIT;
    }
    if (from->position >= from->size || size <= 0) return ERROR_EOF;
    int64_t wanted = from->size - from->position < size ? from->size - from->position : size;
    if (from->bytes != NULL) {
        memcpy(buffer, from->bytes + from->position, (size_t)wanted);
        from->position += wanted;
        return (int)wanted;
    }
    ssize_t got;
    do {
        got = pread(from->descriptor, buffer, (size_t)wanted, (off_t)from->position);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        from->readError = errno;
        return -errno;
    }
    if (got == 0) return ERROR_EOF;
    from->position += got;
    return (int)got;
}

static int64_t seekTo(void *opaque, int64_t offset, int whence) {
    source *from = opaque;
    whence &= ~SEEK_FORCE;
    if (whence == SEEK_SIZE_QUERY) return from->size;
    int64_t target;
    switch (whence) {
    case SEEK_SET: target = offset; break;
    case SEEK_CUR: target = from->position + offset; break;
    case SEEK_END: target = from->size + offset; break;
    default: return -EINVAL;
    }
    if (target < 0) return -EINVAL;
    from->position = target;
    return target;
}

static void describe(int code, const char *what, char *error, size_t errorSize) {
    char reason[128] = "unknown error";
    av.av_strerror(code, reason, sizeof reason);
    snprintf(error, errorSize, "%s: %s", what, reason);
}

/// The video stream `av_find_best_stream` chose, checked: its own index and its parameters' kind
/// and size must be what they are for a video stream, or the assumed layout is not this library's.
static AVStream *videoStream(AVFormatContext *context, int index, char *error, size_t errorSize) {
    unsigned count = FIELD(unsigned, context, FORMAT_NB_STREAMS);
    AVStream **streams = FIELD(AVStream **, context, FORMAT_STREAMS);
    if (index < 0 || (unsigned)index >= count || streams == NULL || streams[index] == NULL) {
        snprintf(error, errorSize, "unsupported FFmpeg version: its streams are not where AlbumKit reads them");
        return NULL;
    }
    AVStream *stream = streams[index];
    AVCodecParameters *parameters = FIELD(AVCodecParameters *, stream, STREAM_CODECPAR);
    if (FIELD(int, stream, STREAM_INDEX) != index || parameters == NULL ||
        FIELD(int, parameters, PARAMETERS_TYPE) != MEDIA_VIDEO) {
        snprintf(error, errorSize, "unsupported FFmpeg version: a stream is not laid out as AlbumKit reads it");
        return NULL;
    }
    return stream;
}

/// How the stream's display matrix turns and flips its frames.
static void orientation(AVStream *stream, albumkit_video_frame *frame) {
    size_t size = 0;
    const uint8_t *data = av.av_stream_get_side_data(stream, PACKET_DISPLAY_MATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) return;
    int32_t matrix[9];
    memcpy(matrix, data, sizeof matrix);
    // A negative determinant flips: undo the flip (negate the first column) to read the turn.
    double determinant = (double)matrix[0] * matrix[4] - (double)matrix[1] * matrix[3];
    if (determinant < 0) {
        frame->mirrored = 1;
        matrix[0] = -matrix[0];
        matrix[3] = -matrix[3];
    }
    double counterclockwise = av.av_display_rotation_get(matrix);
    if (counterclockwise != counterclockwise) return;  // NaN: a matrix of zeros
    double quarters = -counterclockwise / 90.0;
    long turn = (long)(quarters < 0 ? quarters - 0.5 : quarters + 0.5) * 90;
    turn %= 360;
    if (turn < 0) turn += 360;
    frame->rotation = (int)turn;
}

/// The next frame of stream `index` decoded into `frame`: 0, or a negative error (ERROR_EOF at the
/// end). Reads at most `packetLimit` packets.
static int nextFrame(AVFormatContext *context, AVCodecContext *decoder, AVPacket *packet, AVFrame *frame, int index,
                     int packetLimit, source *from) {
    int draining = 0;
    for (int packets = 0; packets < packetLimit; packets++) {
        int result = av.avcodec_receive_frame(decoder, frame);
        if (result == 0) return 0;
        if (result != -EAGAIN) return result;
        if (draining || albumkit_monotonic_seconds() > from->deadline) return from->timedOut || albumkit_monotonic_seconds() > from->deadline ? ERROR_EXIT : result;
        result = av.av_read_frame(context, packet);
        if (result < 0) {
            // The end (or a file cut short): what the decoder holds is still given.
            if (from->timedOut) return ERROR_EXIT;
            av.avcodec_send_packet(decoder, NULL);
            draining = 1;
            continue;
        }
        if (FIELD(int, packet, PACKET_STREAM_INDEX) == index) {
            // A damaged packet is passed over: a later one may decode.
            (void)av.avcodec_send_packet(decoder, packet);
        }
        av.av_packet_unref(packet);
    }
    return ERROR_EXIT;
}

/// `decoded` converted to RGB in `frame`, with the colour matrix and range its stream declares.
static int toRGB(AVFrame *decoded, AVCodecParameters *parameters, int64_t maxPixels, albumkit_video_frame *frame,
                 char *error, size_t errorSize) {
    int width = FIELD(int, decoded, FRAME_WIDTH), height = FIELD(int, decoded, FRAME_HEIGHT);
    int format = FIELD(int, decoded, FRAME_FORMAT);
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384 || (int64_t)width * height > maxPixels) {
        snprintf(error, errorSize, "its frames are %d × %d pixels, more than AlbumKit shows", width, height);
        return -1;
    }
    if (format < 0 || !av.sws_isSupportedInput(format)) {
        snprintf(error, errorSize, "its frames are in a pixel format that cannot be converted (%d)", format);
        return -1;
    }
    SwsContext *scaler = av.sws_getContext(width, height, format, width, height, PIXEL_RGB24,
                                           SWS_BICUBIC | SWS_FULL_CHROMA | SWS_ACCURATE_ROUNDING, NULL, NULL, NULL);
    if (scaler == NULL) {
        snprintf(error, errorSize, "its frames cannot be converted to RGB");
        return -1;
    }
    // BT.601, 709, FCC, 470BG, 170M, 240M, 2020: the matrices swscale knows by the same numbers;
    // anything else (unspecified) is converted as ffmpeg does, with BT.601.
    int space = FIELD(int, parameters, PARAMETERS_COLOR_SPACE);
    int known = space == 1 || space == 4 || space == 5 || space == 6 || space == 7 || space == 9 || space == 10;
    // yuvj420p, yuvj422p, yuvj444p: full range by their format.
    int fullRange = FIELD(int, parameters, PARAMETERS_COLOR_RANGE) == COLOR_RANGE_FULL || format == 12 ||
                    format == 13 || format == 14;
    const int *coefficients = av.sws_getCoefficients(known ? space : 5);
    // Refused for an RGB source, which needs no matrix: the default conversion stands.
    (void)av.sws_setColorspaceDetails(scaler, coefficients, fullRange, coefficients, 1, 0, 1 << 16, 1 << 16);
    uint8_t *pixels = malloc((size_t)width * (size_t)height * 3);
    if (pixels == NULL) {
        av.sws_freeContext(scaler);
        snprintf(error, errorSize, "out of memory for a %d × %d frame", width, height);
        return -1;
    }
    uint8_t *planes[4] = {pixels, NULL, NULL, NULL};
    int strides[4] = {width * 3, 0, 0, 0};
    int rows = av.sws_scale(scaler, (const uint8_t *const *)&FIELD(uint8_t *, decoded, FRAME_DATA),
                            &FIELD(int, decoded, FRAME_LINESIZE), 0, height, planes, strides);
    av.sws_freeContext(scaler);
    if (rows != height) {
        free(pixels);
        snprintf(error, errorSize, "its frame could not be converted to RGB");
        return -1;
    }
    frame->pixels = pixels;
    frame->width = width;
    frame->height = height;
    return 0;
}

int albumkit_ffmpeg_poster_frame(int descriptor, const void *bytes, size_t count, double fraction,
                                 double minimumSeconds, int64_t maxPixels, double seconds,
                                 albumkit_video_frame *frame, char *error, size_t errorSize) {
    memset(frame, 0, sizeof *frame);
    frame->aspectNumerator = 1;
    frame->aspectDenominator = 1;
    error[0] = 0;
    source from = {.descriptor = descriptor, .bytes = bytes, .deadline = albumkit_monotonic_seconds() + seconds};
    if (bytes != NULL) {
        from.size = (int64_t)count;
    } else {
        struct stat status;
        if (fstat(descriptor, &status) != 0) {
            snprintf(error, errorSize, "it cannot be read: %s", strerror(errno));
            return -1;
        }
        from.size = status.st_size;
    }
    const int bufferSize = 1 << 16;
    AVFormatContext *context = av.avformat_alloc_context();
    unsigned char *buffer = av.av_malloc(bufferSize);
    AVIOContext *io = buffer ? av.avio_alloc_context(buffer, bufferSize, 0, &from, readPacket, NULL, seekTo) : NULL;
    AVCodecContext *decoder = NULL;
    AVPacket *packet = av.av_packet_alloc();
    AVFrame *decoded = av.av_frame_alloc();
    AVDictionary *options = NULL;
    int result = -1;
    if (context == NULL || io == NULL || packet == NULL || decoded == NULL) {
        snprintf(error, errorSize, "out of memory");
        if (io == NULL && buffer != NULL) av.av_free(buffer);
        if (context != NULL) av.avformat_free_context(context);
        context = NULL;
        goto done;
    }
    FIELD(AVIOContext *, context, FORMAT_PB) = io;
    // Only the demuxers of containers cameras and phones write: never a playlist or a concatenation
    // that opens other files or addresses, whatever the bytes say.
    av.av_dict_set(&options, "format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,asf,ogg,mxf,dv,m4v,h264,hevc", 0);
    av.av_dict_set(&options, "probesize", "10000000", 0);
    av.av_dict_set(&options, "analyzeduration", "5000000", 0);
    int code = av.avformat_open_input(&context, "", NULL, &options);
    av.av_dict_free(&options);
    if (code < 0) {
        // avformat_open_input frees the context (not the I/O context, which is ours) on failure.
        context = NULL;
        if (from.timedOut) snprintf(error, errorSize, "it took more than %.0f s to open", seconds);
        else describe(code, "it is not a video FFmpeg can read", error, errorSize);
        goto done;
    }
    code = av.avformat_find_stream_info(context, NULL);
    if (code < 0 || from.timedOut) {
        if (from.timedOut) snprintf(error, errorSize, "it took more than %.0f s to open", seconds);
        else describe(code, "its streams cannot be read", error, errorSize);
        goto done;
    }
    const AVCodec *codec = NULL;
    int index = av.av_find_best_stream(context, MEDIA_VIDEO, -1, -1, &codec, 0);
    if (index < 0 || codec == NULL) {
        describe(index, "it has no video stream FFmpeg can decode", error, errorSize);
        goto done;
    }
    AVStream *stream = videoStream(context, index, error, errorSize);
    if (stream == NULL) goto done;
    AVCodecParameters *parameters = FIELD(AVCodecParameters *, stream, STREAM_CODECPAR);
    int64_t declared = (int64_t)FIELD(int, parameters, PARAMETERS_WIDTH) * FIELD(int, parameters, PARAMETERS_HEIGHT);
    if (declared > maxPixels) {
        snprintf(error, errorSize, "its frames are %d × %d pixels, more than AlbumKit shows",
                 FIELD(int, parameters, PARAMETERS_WIDTH), FIELD(int, parameters, PARAMETERS_HEIGHT));
        goto done;
    }
    decoder = av.avcodec_alloc_context3(codec);
    if (decoder == NULL || av.avcodec_parameters_to_context(decoder, parameters) < 0) {
        snprintf(error, errorSize, "its decoder cannot be set up");
        goto done;
    }
    char pixels[32];
    snprintf(pixels, sizeof pixels, "%lld", (long long)maxPixels);
    // One thread: a poster frame is one picture, and the caller renders several at once.
    av.av_dict_set(&options, "threads", "1", 0);
    av.av_dict_set(&options, "max_pixels", pixels, 0);
    code = av.avcodec_open2(decoder, codec, &options);
    av.av_dict_free(&options);
    if (code < 0) {
        describe(code, "its decoder cannot be opened", error, errorSize);
        goto done;
    }
    orientation(stream, frame);
    // Near `fraction` of its length, or `minimumSeconds` in, but never past its middle.
    int64_t duration = FIELD(int64_t, context, FORMAT_DURATION);
    int64_t start = FIELD(int64_t, context, FORMAT_START_TIME);
    int64_t target = 0;
    if (duration != NO_TIME && duration > 0) {
        double wanted = fraction * (double)duration;
        double early = minimumSeconds * 1e6 < (double)duration / 2 ? minimumSeconds * 1e6 : (double)duration / 2;
        target = (int64_t)(wanted > early ? wanted : early);
    }
    if (start != NO_TIME && start > 0) target += start;
    int got = -1;
    if (target > 0 && av.avformat_seek_file(context, -1, INT64_MIN, target, target, 0) >= 0) {
        got = nextFrame(context, decoder, packet, decoded, index, 3000, &from);
    }
    if (got != 0 && !from.timedOut) {
        // Not seekable, or nothing decodes there (a file cut short): the first frame that decodes.
        av.avformat_seek_file(context, -1, INT64_MIN, start != NO_TIME ? start : 0, start != NO_TIME ? start : 0, 0);
        av.avcodec_flush_buffers(decoder);
        got = nextFrame(context, decoder, packet, decoded, index, 3000, &from);
    }
    if (got != 0 && got != ERROR_EXIT && !from.timedOut &&
        av.avformat_seek_file(context, -1, INT64_MIN, 0, 0, SEEK_TO_BYTE) >= 0) {
        // A stream whose seek to its first timestamp lands past its only keyframe (a short MPEG-TS
        // clip): read from its first byte, as a player does.
        av.avcodec_flush_buffers(decoder);
        got = nextFrame(context, decoder, packet, decoded, index, 3000, &from);
    }
    if (got != 0) {
        if (from.timedOut || got == ERROR_EXIT) snprintf(error, errorSize, "no frame decoded within %.0f s or 3000 packets", seconds);
        else describe(got, "no frame of it decodes", error, errorSize);
        goto done;
    }
    if (toRGB(decoded, parameters, maxPixels, frame, error, errorSize) != 0) goto done;
    AVRational aspect = av.av_guess_sample_aspect_ratio(context, stream, decoded);
    if (aspect.num > 0 && aspect.den > 0) {
        frame->aspectNumerator = aspect.num;
        frame->aspectDenominator = aspect.den;
    }
    result = 0;
done:
    av.av_frame_free(&decoded);
    av.av_packet_free(&packet);
    av.avcodec_free_context(&decoder);
    if (context != NULL) av.avformat_close_input(&context);
    if (io != NULL) {
        // libavformat may have replaced the buffer it was given: the one it holds now is freed.
        av.av_free(FIELD(unsigned char *, io, IO_BUFFER));
        av.avio_context_free(&io);
    }
    if (result != 0) {
        free(frame->pixels);
        frame->pixels = NULL;
    }
    return result;
}

void albumkit_ffmpeg_release(albumkit_video_frame *frame) {
    free(frame->pixels);
    frame->pixels = NULL;
}

#endif  // defined(__linux__)
