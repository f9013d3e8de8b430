#include "albumkit_libraw.h"

// Only Linux loads LibRaw at run time; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// LibRaw's names for what is declared opaquely here (its headers are not needed to build).
typedef struct libraw_data_t libraw_data_t;

// `libraw_processed_image_t`, LibRaw's public structure (libraw_types.h): the developed picture.
typedef struct {
    int type;  // enum LibRaw_image_formats
    unsigned short height, width, colors, bits;
    unsigned int data_size;
    unsigned char data[1];
} processed_image;

// LibRaw's constant (from its public headers): a developed picture of pixels, not a JPEG.
#define IMAGE_BITMAP 2

static struct {
    const char *(*libraw_version)(void);
    int (*libraw_versionNumber)(void);
    const char *(*libraw_strerror)(int);
    libraw_data_t *(*libraw_init)(unsigned);
    int (*libraw_open_buffer)(libraw_data_t *, void *, size_t);
    int (*libraw_unpack)(libraw_data_t *);
    void (*libraw_recycle_datastream)(libraw_data_t *);
    void (*libraw_close)(libraw_data_t *);
    int (*libraw_dcraw_process)(libraw_data_t *);
    processed_image *(*libraw_dcraw_make_mem_image)(libraw_data_t *, int *);
    void (*libraw_dcraw_clear_mem)(processed_image *);
    void (*libraw_set_output_bps)(libraw_data_t *, int);
    void (*libraw_set_output_color)(libraw_data_t *, int);
    void (*libraw_set_gamma)(libraw_data_t *, int, float);
    void (*libraw_set_no_auto_bright)(libraw_data_t *, int);
    int (*libraw_get_raw_height)(libraw_data_t *);
    int (*libraw_get_raw_width)(libraw_data_t *);
    void (*libraw_set_progress_handler)(libraw_data_t *, int (*)(void *, int, int, int), void *);
    void (*libraw_set_dataerror_handler)(libraw_data_t *, void (*)(void *, const char *, long long), void *);
    void (*libraw_set_memerror_handler)(libraw_data_t *, void (*)(void *, const char *, const char *), void *);
} raw;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;
static char version[64];

#define SYMBOL(name) {#name, (void **)&raw.name}

static int load(char *error, size_t errorSize) {
    // The build for threads first (pictures are made on several threads at once); the development
    // package's link last, so that another LibRaw is reported as the wrong version, not as missing.
    static const char *const names[] = {"libraw_r.so.20", "libraw.so.20", "libraw_r.so"};
    const albumkit_symbol symbols[] = {
        SYMBOL(libraw_version),          SYMBOL(libraw_versionNumber),       SYMBOL(libraw_strerror),
        SYMBOL(libraw_init),             SYMBOL(libraw_open_buffer),         SYMBOL(libraw_unpack),
        SYMBOL(libraw_recycle_datastream), SYMBOL(libraw_close),             SYMBOL(libraw_dcraw_process),
        SYMBOL(libraw_dcraw_make_mem_image), SYMBOL(libraw_dcraw_clear_mem), SYMBOL(libraw_set_output_bps),
        SYMBOL(libraw_set_output_color), SYMBOL(libraw_set_gamma), SYMBOL(libraw_set_no_auto_bright), SYMBOL(libraw_get_raw_height),
        SYMBOL(libraw_get_raw_width),    SYMBOL(libraw_set_progress_handler), SYMBOL(libraw_set_dataerror_handler),
        SYMBOL(libraw_set_memerror_handler),
    };
    if (albumkit_load_library(names, sizeof names / sizeof names[0], symbols, sizeof symbols / sizeof symbols[0],
                              "LibRaw", "libraw20", error, errorSize) == NULL) {
        return -1;
    }
    int number = raw.libraw_versionNumber();
    if (number >> 8 != ((0 << 8) | 20)) {
        snprintf(error, errorSize,
                 "unsupported LibRaw version: %d.%d.%d is loaded, and AlbumKit sets fields of LibRaw 0.20's "
                 "structures; install libraw20",
                 number >> 16, (number >> 8) & 0xff, number & 0xff);
        return -1;
    }
    snprintf(version, sizeof version, "%s", raw.libraw_version());
    return 0;
}

int albumkit_libraw_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_libraw_load_error(void) { return albumkit_library_error(&library); }

const char *albumkit_libraw_version(void) { return version; }

// Every function below is reached only after a successful load (the Swift side loads first).

#define FIELD ALBUMKIT_FIELD

/// What LibRaw's callbacks record for one decode.
typedef struct {
    double deadline;
    int timedOut;
    int dataErrors;
    int memoryError;
} decoding;

static int progress(void *context, int stage, int iteration, int expected) {
    (void)stage, (void)iteration, (void)expected;
    decoding *state = context;
    if (albumkit_monotonic_seconds() <= state->deadline) return 0;
    state->timedOut = 1;
    return 1;  // LibRaw stops with LIBRAW_CANCELLED_BY_CALLBACK
}

// LibRaw's own handlers print to standard error: these only count, and the result says what failed.
static void dataError(void *context, const char *file, long long offset) {
    (void)file, (void)offset;
    ((decoding *)context)->dataErrors++;
}

static void memoryError(void *context, const char *file, const char *where) {
    (void)file, (void)where;
    ((decoding *)context)->memoryError = 1;
}

/// The whole file open as `descriptor`, read with pread from its start, into `*bytes` (malloc'd).
static int readWhole(int descriptor, int64_t maxBytes, uint8_t **bytes, size_t *count, char *error,
                     size_t errorSize) {
    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        snprintf(error, errorSize, "it cannot be read: %s", strerror(errno));
        return -1;
    }
    if (status.st_size <= 0 || (int64_t)status.st_size > maxBytes) {
        snprintf(error, errorSize, "it is %lld bytes long, more than AlbumKit decodes as a raw file (%lld)",
                 (long long)status.st_size, (long long)maxBytes);
        if (status.st_size <= 0) snprintf(error, errorSize, "it is empty");
        return -1;
    }
    size_t size = (size_t)status.st_size, done = 0;
    uint8_t *buffer = malloc(size);
    if (buffer == NULL) {
        snprintf(error, errorSize, "out of memory for its %zu bytes", size);
        return -1;
    }
    while (done < size) {
        ssize_t got = pread(descriptor, buffer + done, size - done, (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            if (got < 0) snprintf(error, errorSize, "it cannot be read: %s", strerror(errno));
            else snprintf(error, errorSize, "it ended after %zu of its %zu bytes", done, size);
            free(buffer);
            return -1;
        }
        done += (size_t)got;
    }
    *bytes = buffer;
    *count = size;
    return 0;
}

static void describe(int code, const char *what, const decoding *state, double seconds, char *error,
                     size_t errorSize) {
    if (state->timedOut) snprintf(error, errorSize, "%s: stopped after %.0f s", what, seconds);
    else if (state->memoryError) snprintf(error, errorSize, "%s: LibRaw ran out of memory", what);
    else snprintf(error, errorSize, "%s: %s", what, raw.libraw_strerror(code));
}

static int decode(int descriptor, const void *bytes, size_t count, int half, int64_t maxBytes, int64_t maxPixels,
                  double seconds, albumkit_raw_picture *picture, char *error, size_t errorSize) {
    memset(picture, 0, sizeof *picture);
    error[0] = 0;
    uint8_t *owned = NULL;
    if (bytes == NULL) {
        if (readWhole(descriptor, maxBytes, &owned, &count, error, errorSize) != 0) return -1;
        bytes = owned;
    } else if (count == 0 || (int64_t)count > maxBytes) {
        snprintf(error, errorSize, "it is %zu bytes long, which AlbumKit does not decode as a raw file", count);
        return -1;
    }
    decoding state = {.deadline = albumkit_monotonic_seconds() + seconds};
    processed_image *developed = NULL;
    int result = -1, code;
    libraw_data_t *data = raw.libraw_init(0);
    if (data == NULL) {
        snprintf(error, errorSize, "out of memory");
        goto done;
    }
    raw.libraw_set_progress_handler(data, progress, &state);
    raw.libraw_set_dataerror_handler(data, dataError, &state);
    raw.libraw_set_memerror_handler(data, memoryError, &state);
    // libraw_open_buffer does not write to the buffer (its parameter is not const in 0.20).
    code = raw.libraw_open_buffer(data, (void *)bytes, count);
    if (code != 0) {
        describe(code, "it is not a raw file LibRaw can read", &state, seconds, error, errorSize);
        goto done;
    }
    // The fields below are written at LibRaw 0.20's offsets: first check that what is read there is
    // what LibRaw's own functions say, or the layout is not this library's.
    int rawHeight = raw.libraw_get_raw_height(data), rawWidth = raw.libraw_get_raw_width(data);
    raw.libraw_set_output_bps(data, 8);
    raw.libraw_set_no_auto_bright(data, 0);
    if (FIELD(unsigned short, data, ALBUMKIT_LIBRAW_RAW_HEIGHT) != rawHeight ||
        FIELD(unsigned short, data, ALBUMKIT_LIBRAW_RAW_WIDTH) != rawWidth ||
        FIELD(int, data, ALBUMKIT_LIBRAW_OUTPUT_BPS) != 8 || FIELD(int, data, ALBUMKIT_LIBRAW_NO_AUTO_BRIGHT) != 0) {
        snprintf(error, errorSize, "unsupported LibRaw version: its structures are not laid out as AlbumKit writes them");
        goto done;
    }
    if (rawWidth <= 0 || rawHeight <= 0 || (int64_t)rawWidth * rawHeight > maxPixels) {
        snprintf(error, errorSize, "its sensor data is %d × %d pixels, more than AlbumKit decodes", rawWidth, rawHeight);
        goto done;
    }
    FIELD(int, data, ALBUMKIT_LIBRAW_HALF_SIZE) = half ? 1 : 0;
    FIELD(int, data, ALBUMKIT_LIBRAW_USE_CAMERA_WB) = 1;
    // LibRaw's own bound on the raw data it allocates: the pixels allowed, at most four 16-bit samples each.
    FIELD(unsigned, data, ALBUMKIT_LIBRAW_MAX_RAW_MEMORY_MB) = (unsigned)((maxPixels * 8 + (1 << 20) - 1) >> 20);
    // sRGB: its primaries, and its tone curve (a power of 1/2.4 with a linear toe of slope 12.92)
    // rather than LibRaw's default BT.709 curve.
    raw.libraw_set_output_color(data, 1);
    raw.libraw_set_gamma(data, 0, 1 / 2.4f);
    raw.libraw_set_gamma(data, 1, 12.92f);
    code = raw.libraw_unpack(data);
    if (code != 0) {
        describe(code, "its sensor data cannot be read", &state, seconds, error, errorSize);
        goto done;
    }
    // The file's bytes are not read again once the sensor data is unpacked.
    raw.libraw_recycle_datastream(data);
    free(owned);
    owned = NULL;
    code = raw.libraw_dcraw_process(data);
    if (code != 0) {
        describe(code, "its sensor data cannot be developed", &state, seconds, error, errorSize);
        goto done;
    }
    code = 0;
    developed = raw.libraw_dcraw_make_mem_image(data, &code);
    if (developed == NULL || code != 0) {
        describe(code, "its developed picture cannot be made", &state, seconds, error, errorSize);
        goto done;
    }
    if (developed->type != IMAGE_BITMAP || developed->colors != 3 || developed->bits != 8 || developed->width == 0 ||
        developed->height == 0 ||
        developed->data_size != (unsigned)developed->width * developed->height * 3) {
        snprintf(error, errorSize, "LibRaw developed a picture AlbumKit cannot read (%u × %u, %u colours of %u bits)",
                 developed->width, developed->height, developed->colors, developed->bits);
        goto done;
    }
    picture->pixels = developed->data;
    picture->width = developed->width;
    picture->height = developed->height;
    picture->owner = developed;
    developed = NULL;
    picture->flip = FIELD(int, data, ALBUMKIT_LIBRAW_FLIP);
    picture->rawWidth = rawWidth;
    picture->rawHeight = rawHeight;
    result = 0;
done:
    if (developed != NULL) raw.libraw_dcraw_clear_mem(developed);
    if (data != NULL) raw.libraw_close(data);
    free(owned);
    return result;
}

// One raw is developed at a time in a process: each holds its file, its sensor data and its
// developed picture at once (about 100 MB for 24 megapixels at half size), and `album previews`
// works on one photo per core, so two at once would pass the 256 MB a thumbnail may take.
static pthread_mutex_t developing = PTHREAD_MUTEX_INITIALIZER;

int albumkit_libraw_decode(int descriptor, const void *bytes, size_t count, int half, int64_t maxBytes,
                           int64_t maxPixels, double seconds, albumkit_raw_picture *picture, char *error,
                           size_t errorSize) {
    pthread_mutex_lock(&developing);
    int result = decode(descriptor, bytes, count, half, maxBytes, maxPixels, seconds, picture, error, errorSize);
    pthread_mutex_unlock(&developing);
    return result;
}

void albumkit_libraw_release(albumkit_raw_picture *picture) {
    if (picture->owner != NULL) raw.libraw_dcraw_clear_mem(picture->owner);
    picture->owner = NULL;
    picture->pixels = NULL;
}

#endif  // defined(__linux__)
