#include "albumkit_tiff.h"

// Only Linux loads libtiff at run time; elsewhere this file is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

// libtiff's names for what is declared here (its headers are not needed to build).
typedef struct tiff TIFF;
typedef struct TIFFOpenOptions TIFFOpenOptions;
typedef ssize_t tmsize_t;
typedef uint64_t toff_t;
typedef void *thandle_t;
typedef tmsize_t (*ReadWrite)(thandle_t, void *, tmsize_t);
typedef toff_t (*Seek)(thandle_t, toff_t, int);
typedef int (*Close)(thandle_t);
typedef toff_t (*Size)(thandle_t);
typedef int (*Map)(thandle_t, void **, toff_t *);
typedef void (*Unmap)(thandle_t, void *, toff_t);
typedef int (*Handler)(TIFF *, void *, const char *, const char *, va_list);

enum {
    TAG_IMAGE_WIDTH = 256,
    TAG_IMAGE_LENGTH = 257,
    TAG_BITS_PER_SAMPLE = 258,
    TAG_PHOTOMETRIC = 262,
    TAG_SAMPLES_PER_PIXEL = 277,
    TAG_SAMPLE_FORMAT = 339,
    ORIENTATION_TOP_LEFT = 1,
    PHOTOMETRIC_MIN_IS_WHITE = 0,
    SAMPLE_FORMAT_INT = 2,
    SAMPLE_FORMAT_FLOAT = 3,
};

static struct {
    TIFF *(*clientOpenExt)(const char *, const char *, thandle_t, ReadWrite, ReadWrite, Seek, Close, Size, Map, Unmap,
                           TIFFOpenOptions *);
    TIFFOpenOptions *(*optionsAlloc)(void);
    void (*optionsFree)(TIFFOpenOptions *);
    void (*optionsSetErrorHandler)(TIFFOpenOptions *, Handler, void *);
    void (*optionsSetWarningHandler)(TIFFOpenOptions *, Handler, void *);
    void (*optionsSetMaxSingleMemAlloc)(TIFFOpenOptions *, tmsize_t);
    int (*getField)(TIFF *, uint32_t, ...);
    int (*getFieldDefaulted)(TIFF *, uint32_t, ...);
    tmsize_t (*scanlineSize)(TIFF *);
    int (*readScanline)(TIFF *, void *, uint32_t, uint16_t);
    int (*readRGBAImageOriented)(TIFF *, uint32_t, uint32_t, uint32_t *, int, int);
    void (*close)(TIFF *);
} tiff;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libtiff.so.6", "libtiff.6.dylib", "libtiff.dylib"};
    const albumkit_symbol symbols[] = {
        {"TIFFClientOpenExt", (void **)&tiff.clientOpenExt},
        {"TIFFOpenOptionsAlloc", (void **)&tiff.optionsAlloc},
        {"TIFFOpenOptionsFree", (void **)&tiff.optionsFree},
        {"TIFFOpenOptionsSetErrorHandlerExtR", (void **)&tiff.optionsSetErrorHandler},
        {"TIFFOpenOptionsSetWarningHandlerExtR", (void **)&tiff.optionsSetWarningHandler},
        {"TIFFOpenOptionsSetMaxSingleMemAlloc", (void **)&tiff.optionsSetMaxSingleMemAlloc},
        {"TIFFGetField", (void **)&tiff.getField},
        {"TIFFGetFieldDefaulted", (void **)&tiff.getFieldDefaulted},
        {"TIFFScanlineSize", (void **)&tiff.scanlineSize},
        {"TIFFReadScanline", (void **)&tiff.readScanline},
        {"TIFFReadRGBAImageOriented", (void **)&tiff.readRGBAImageOriented},
        {"TIFFClose", (void **)&tiff.close},
    };
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "libtiff", "libtiff6", error, errorSize);
    return handle == NULL ? -1 : 0;
}

int albumkit_tiff_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_tiff_load_error(void) { return albumkit_library_error(&library); }

/// The bytes libtiff reads, where it is in them, and the first error it reported.
typedef struct {
    const unsigned char *bytes;
    size_t count;
    size_t position;
    char error[256];
} reading;

static tmsize_t readBytes(thandle_t handle, void *buffer, tmsize_t size) {
    reading *from = handle;
    if (size <= 0 || from->position >= from->count) return 0;
    size_t left = from->count - from->position;
    size_t taken = (size_t)size < left ? (size_t)size : left;
    memcpy(buffer, from->bytes + from->position, taken);
    from->position += taken;
    return (tmsize_t)taken;
}

static tmsize_t refuseWrite(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static toff_t seekBytes(thandle_t handle, toff_t offset, int whence) {
    reading *from = handle;
    uint64_t base = whence == SEEK_CUR ? from->position : (whence == SEEK_END ? from->count : 0);
    uint64_t target = base + offset;
    // A seek past the end stays there: reads give nothing, as at the end of a file.
    from->position = target > from->count ? from->count : (size_t)target;
    return from->position;
}

static int closeBytes(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t sizeOfBytes(thandle_t handle) { return ((reading *)handle)->count; }

static int noMap(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void noUnmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

/// Keeps libtiff's first error for the caller; nothing is printed.
static int keepError(TIFF *image, void *context, const char *module, const char *format, va_list arguments) {
    (void)image;
    (void)module;
    reading *from = context;
    if (from->error[0] == 0) vsnprintf(from->error, sizeof from->error, format, arguments);
    return 1;
}

/// Warnings (an unknown tag, say) are not errors: the picture is read as far as it goes.
static int ignoreWarning(TIFF *image, void *context, const char *module, const char *format, va_list arguments) {
    (void)image;
    (void)context;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

/// Sample `index` of a row of one-sample pixels `bits` deep (packed from the most significant bit
/// for depths that are not whole bytes; in the machine's order, as libtiff hands them, otherwise).
static double sampleAt(const unsigned char *row, uint32_t index, int bits, int format) {
    switch (bits) {
    case 16: {
        uint16_t value;
        memcpy(&value, row + (size_t)index * 2, 2);
        return format == SAMPLE_FORMAT_INT ? (double)(int16_t)value : (double)value;
    }
    case 32: {
        uint32_t value;
        memcpy(&value, row + (size_t)index * 4, 4);
        if (format == SAMPLE_FORMAT_FLOAT) {
            float real;
            memcpy(&real, &value, 4);
            return (double)real;
        }
        return format == SAMPLE_FORMAT_INT ? (double)(int32_t)value : (double)value;
    }
    case 64: {
        double real;
        memcpy(&real, row + (size_t)index * 8, 8);
        return real;
    }
    default: {
        uint64_t bit = (uint64_t)index * (uint64_t)bits, value = 0;
        for (int taken = 0; taken < bits; taken++, bit++) {
            value = (value << 1) | ((row[bit / 8] >> (7 - bit % 8)) & 1);
        }
        return (double)value;
    }
    }
}

/// A grey TIFF of a depth libtiff's RGBA interface refuses (12 bits, 32-bit integers or floats, 64-bit
/// floats), read a row at a time and stretched from its smallest to its largest value into 8-bit
/// RGBA: 0 with the pixels in `*pixels`, -1 with the reason in `error`.
static int greyRGBA(TIFF *image, reading *from, uint32_t w, uint32_t h, void **pixels, char *error,
                    size_t errorSize) {
    uint16_t bits = 0, samples = 0, format = 1, photometric = 1;
    tiff.getFieldDefaulted(image, TAG_BITS_PER_SAMPLE, &bits);
    tiff.getFieldDefaulted(image, TAG_SAMPLES_PER_PIXEL, &samples);
    tiff.getFieldDefaulted(image, TAG_SAMPLE_FORMAT, &format);
    if (tiff.getField(image, TAG_PHOTOMETRIC, &photometric) != 1) photometric = 1;
    int known = bits == 12 || bits == 16 || bits == 24 || (bits == 32 && format != 0) ||
                (bits == 64 && format == SAMPLE_FORMAT_FLOAT);
    if (samples != 1 || !known || (format == SAMPLE_FORMAT_FLOAT && bits < 32)) return -1;
    tmsize_t size = tiff.scanlineSize(image);
    if (size <= 0 || (uint64_t)size * 8 < (uint64_t)w * bits) return -1;
    unsigned char *row = malloc((size_t)size);
    unsigned char *out = calloc((size_t)w * (size_t)h, 4);
    double smallest = 0, largest = 0;
    int seen = 0, failed = row == NULL || out == NULL;
    // Two passes: the range first, then each sample placed in it.
    for (int pass = 0; pass < 2 && !failed; pass++) {
        for (uint32_t y = 0; y < h && !failed; y++) {
            if (tiff.readScanline(image, row, y, 0) != 1) {
                failed = 1;
                break;
            }
            for (uint32_t x = 0; x < w; x++) {
                double value = sampleAt(row, x, bits, format);
                if (value != value || value - value != 0) continue;  // NaN or infinite: left black
                if (pass == 0) {
                    if (!seen || value < smallest) smallest = value;
                    if (!seen || value > largest) largest = value;
                    seen = 1;
                } else {
                    double level = largest > smallest ? (value - smallest) / (largest - smallest) * 255.0 : 0;
                    unsigned char grey = (unsigned char)(level + 0.5);
                    if (photometric == PHOTOMETRIC_MIN_IS_WHITE) grey = (unsigned char)(255 - grey);
                    unsigned char *pixel = out + ((size_t)y * w + x) * 4;
                    pixel[0] = pixel[1] = pixel[2] = grey;
                }
            }
        }
    }
    free(row);
    if (failed) {
        free(out);
        snprintf(error, errorSize, "libtiff: %s", from->error[0] ? from->error : "a row does not decode");
        return -1;
    }
    for (size_t index = 0; index < (size_t)w * (size_t)h; index++) out[index * 4 + 3] = 255;
    *pixels = out;
    return 0;
}

int albumkit_tiff_rgba(const void *bytes, size_t count, long long maxPixels, void **pixels, int *width, int *height,
                       char *error, size_t errorSize) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    reading from = {bytes, count, 0, {0}};
    TIFFOpenOptions *options = tiff.optionsAlloc();
    if (options == NULL) {
        snprintf(error, errorSize, "libtiff could not start reading");
        return -1;
    }
    tiff.optionsSetErrorHandler(options, keepError, &from);
    tiff.optionsSetWarningHandler(options, ignoreWarning, &from);
    // No single block larger than the largest picture's RGBA pixels (a hostile strip size).
    tiff.optionsSetMaxSingleMemAlloc(options, (tmsize_t)(maxPixels * 4));
    TIFF *image = tiff.clientOpenExt("picture", "rm", &from, readBytes, refuseWrite, seekBytes, closeBytes,
                                     sizeOfBytes, noMap, noUnmap, options);
    tiff.optionsFree(options);
    if (image == NULL) {
        snprintf(error, errorSize, "libtiff: %s", from.error[0] ? from.error : "not a TIFF it reads");
        return -1;
    }
    uint32_t w = 0, h = 0;
    int result = -1;
    if (tiff.getField(image, TAG_IMAGE_WIDTH, &w) != 1 || tiff.getField(image, TAG_IMAGE_LENGTH, &h) != 1 || w == 0 ||
        h == 0) {
        snprintf(error, errorSize, "libtiff: the TIFF gives no size");
    } else if ((long long)w * (long long)h > maxPixels || w > 65535 || h > 65535) {
        snprintf(error, errorSize, "the TIFF is %u × %u pixels, more than the %lld AlbumKit decodes", w, h, maxPixels);
    } else {
        uint32_t *raster = calloc((size_t)w * (size_t)h, 4);
        if (raster == NULL) {
            snprintf(error, errorSize, "no memory for %u × %u pixels", w, h);
        } else if (tiff.readRGBAImageOriented(image, w, h, raster, ORIENTATION_TOP_LEFT, 0) != 1) {
            snprintf(error, errorSize, "libtiff: %s", from.error[0] ? from.error : "the picture does not decode");
            free(raster);
            // Grey samples of a depth the RGBA interface does not convert: read row by row.
            char reason[256];
            from.error[0] = 0;
            if (greyRGBA(image, &from, w, h, pixels, reason, sizeof reason) == 0) {
                *width = (int)w;
                *height = (int)h;
                result = 0;
            }
        } else {
            // ABGR packed in 32 bits, made R, G, B, A bytes in place (each pixel is read before its
            // own four bytes are written).
            unsigned char *samples = (unsigned char *)raster;
            for (size_t index = 0; index < (size_t)w * (size_t)h; index++) {
                uint32_t pixel = raster[index];
                samples[index * 4] = (unsigned char)(pixel & 0xFF);
                samples[index * 4 + 1] = (unsigned char)((pixel >> 8) & 0xFF);
                samples[index * 4 + 2] = (unsigned char)((pixel >> 16) & 0xFF);
                samples[index * 4 + 3] = (unsigned char)(pixel >> 24);
            }
            *pixels = raster;
            *width = (int)w;
            *height = (int)h;
            result = 0;
        }
    }
    tiff.close(image);
    return result;
}

void albumkit_tiff_free(void *pixels) { free(pixels); }

#endif  // defined(__linux__)
