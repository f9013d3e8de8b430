#include "albumkit_vips.h"

// Only Linux loads libvips at run time; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libvips's own names for what is declared opaquely here (its headers are not needed to build).
typedef struct VipsImage VipsImage;
typedef size_t GType;

static struct {
    int (*init)(const char *);
    const char *(*version_string)(void);
    void (*block_untrusted_set)(int);
    void (*operation_block_set)(const char *, int);
    void (*cache_set_max)(int);
    void (*concurrency_set)(int);
    int (*enum_from_nick)(const char *, GType, const char *);
    GType (*interpretation_type)(void);
    GType (*size_type)(void);
    GType (*fail_on_type)(void);
    GType (*band_format_type)(void);
    GType (*align_type)(void);
    void *(*source_new_from_descriptor)(int);
    int (*thumbnail_source)(void *, VipsImage **, int, ...);
    int (*thumbnail_buffer)(void *, size_t, VipsImage **, int, ...);
    int (*thumbnail_image)(VipsImage *, VipsImage **, int, ...);
    VipsImage *(*new_from_memory_copy)(const void *, size_t, int, int, int, int);
    int (*colourspace)(VipsImage *, VipsImage **, int, ...);
    int (*cast)(VipsImage *, VipsImage **, int, ...);
    int (*flatten)(VipsImage *, VipsImage **, ...);
    int (*copy)(VipsImage *, VipsImage **, ...);
    int (*arrayjoin)(VipsImage **, VipsImage **, int, ...);
    int (*text)(VipsImage **, const char *, ...);
    int (*gravity)(VipsImage *, VipsImage **, int, int, int, ...);
    int (*embed)(VipsImage *, VipsImage **, int, int, int, int, ...);
    int (*join)(VipsImage *, VipsImage *, VipsImage **, int, ...);
    int (*invert)(VipsImage *, VipsImage **, ...);
    int (*bandjoin)(VipsImage **, VipsImage **, int, ...);
    GType (*compass_type)(void);
    GType (*extend_type)(void);
    GType (*direction_type)(void);
    void *(*array_double_new)(const double *, int);
    void (*area_unref)(void *);
    int (*hasalpha)(VipsImage *);
    int (*get_width)(const VipsImage *);
    int (*get_height)(const VipsImage *);
    int (*get_bands)(const VipsImage *);
    int (*get_format)(const VipsImage *);
    int (*guess_interpretation)(const VipsImage *);
    void (*set_string)(VipsImage *, const char *, const char *);
    void (*set_int)(VipsImage *, const char *, int);
    int (*autorot)(VipsImage *, VipsImage **, ...);
    GType (*get_typeof)(const VipsImage *, const char *);
    int (*icc_transform)(VipsImage *, VipsImage **, const char *, ...);
    int (*remove)(VipsImage *, const char *);
    int (*jpegsave_buffer)(VipsImage *, void **, size_t *, ...);
    int (*pngsave_buffer)(VipsImage *, void **, size_t *, ...);
    void *(*write_to_memory)(VipsImage *, size_t *);
    char *(*error_buffer_copy)(void);
    void (*error_clear)(void);
    VipsImage *(*copy_memory)(VipsImage *);
    unsigned (*log_set_handler)(const char *, int, void (*)(const char *, int, const char *, void *), void *);
    void (*object_unref)(void *);
    void (*free)(void *);
} vips;

// libvips's enumerations, looked up by their names when it loads (their numbers are in headers
// this build does not have).
static struct {
    int srgb, grey, uchar, fitDown, fitExact, failNone, failAny, centre, compassCentre, extendBackground, vertical;
} value;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;
/// `vips_vector_isenabled`, when this libvips has it.
static int (*vectorsEnabled)(void) = NULL;
static int requestedThreads = 0;

/// libvips's warnings (a damaged tile, a cut-short scan) are not printed on the program's standard
/// error: a failure reaches the caller as an error naming the file.
static void ignoreMessage(const char *domain, int level, const char *message, void *context) {
    (void)domain;
    (void)level;
    (void)message;
    (void)context;
}

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libvips.so.42", "libvips.42.dylib", "libvips.dylib"};
    const albumkit_symbol symbols[] = {
        {"vips_init", (void **)&vips.init},
        {"vips_version_string", (void **)&vips.version_string},
        {"vips_block_untrusted_set", (void **)&vips.block_untrusted_set},
        {"vips_operation_block_set", (void **)&vips.operation_block_set},
        {"vips_cache_set_max", (void **)&vips.cache_set_max},
        {"vips_concurrency_set", (void **)&vips.concurrency_set},
        {"vips_enum_from_nick", (void **)&vips.enum_from_nick},
        {"vips_interpretation_get_type", (void **)&vips.interpretation_type},
        {"vips_size_get_type", (void **)&vips.size_type},
        {"vips_fail_on_get_type", (void **)&vips.fail_on_type},
        {"vips_band_format_get_type", (void **)&vips.band_format_type},
        {"vips_align_get_type", (void **)&vips.align_type},
        {"vips_source_new_from_descriptor", (void **)&vips.source_new_from_descriptor},
        {"vips_thumbnail_source", (void **)&vips.thumbnail_source},
        {"vips_thumbnail_buffer", (void **)&vips.thumbnail_buffer},
        {"vips_thumbnail_image", (void **)&vips.thumbnail_image},
        {"vips_image_new_from_memory_copy", (void **)&vips.new_from_memory_copy},
        {"vips_colourspace", (void **)&vips.colourspace},
        {"vips_cast", (void **)&vips.cast},
        {"vips_flatten", (void **)&vips.flatten},
        {"vips_copy", (void **)&vips.copy},
        {"vips_arrayjoin", (void **)&vips.arrayjoin},
        {"vips_text", (void **)&vips.text},
        {"vips_gravity", (void **)&vips.gravity},
        {"vips_embed", (void **)&vips.embed},
        {"vips_join", (void **)&vips.join},
        {"vips_invert", (void **)&vips.invert},
        {"vips_bandjoin", (void **)&vips.bandjoin},
        {"vips_compass_direction_get_type", (void **)&vips.compass_type},
        {"vips_extend_get_type", (void **)&vips.extend_type},
        {"vips_direction_get_type", (void **)&vips.direction_type},
        {"vips_array_double_new", (void **)&vips.array_double_new},
        {"vips_area_unref", (void **)&vips.area_unref},
        {"vips_image_hasalpha", (void **)&vips.hasalpha},
        {"vips_image_get_width", (void **)&vips.get_width},
        {"vips_image_get_height", (void **)&vips.get_height},
        {"vips_image_get_bands", (void **)&vips.get_bands},
        {"vips_image_get_format", (void **)&vips.get_format},
        {"vips_image_guess_interpretation", (void **)&vips.guess_interpretation},
        {"vips_image_set_string", (void **)&vips.set_string},
        {"vips_image_remove", (void **)&vips.remove},
        {"vips_image_set_int", (void **)&vips.set_int},
        {"vips_autorot", (void **)&vips.autorot},
        {"vips_image_get_typeof", (void **)&vips.get_typeof},
        {"vips_icc_transform", (void **)&vips.icc_transform},
        {"vips_jpegsave_buffer", (void **)&vips.jpegsave_buffer},
        {"vips_pngsave_buffer", (void **)&vips.pngsave_buffer},
        {"vips_image_write_to_memory", (void **)&vips.write_to_memory},
        {"vips_error_buffer_copy", (void **)&vips.error_buffer_copy},
        {"vips_error_clear", (void **)&vips.error_clear},
        {"vips_image_copy_memory", (void **)&vips.copy_memory},
        // GLib's, reached through libvips (dlsym searches a library's dependencies too).
        {"g_object_unref", (void **)&vips.object_unref},
        {"g_free", (void **)&vips.free},
        {"g_log_set_handler", (void **)&vips.log_set_handler},
    };
    // vips_block_untrusted_set is libvips 8.13's: an older one is refused as lacking it.
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "libvips", "libvips42", error,
                                         errorSize);
    if (handle == NULL) return -1;
    if (vips.init("albumkit") != 0) {
        snprintf(error, errorSize, "libvips could not start; reinstall libvips42");
        return -1;
    }
    // No run-time generated vector code (Orc): with several pictures decoded at once, Orc 0.4.33's
    // generated code crashed `album duplicates` (a bad pointer inside liborc, seen once in CI). The
    // plain C paths give the same pixels. Absent from a libvips built without Orc, or after 8.15
    // (which has no Orc): nothing to turn off then.
    void (*vectorSetEnabled)(int);
    *(void **)&vectorSetEnabled = dlsym(handle, "vips_vector_set_enabled");
    if (vectorSetEnabled != NULL) vectorSetEnabled(0);
    *(void **)&vectorsEnabled = dlsym(handle, "vips_vector_isenabled");
    // GLib's G_LOG_LEVEL_WARNING | MESSAGE | INFO | DEBUG: everything but errors.
    vips.log_set_handler("VIPS", 16 | 32 | 64 | 128, ignoreMessage, NULL);
    // Only the loaders of the formats AlbumKit keeps parse a file: never ImageMagick, PDF, SVG or
    // libvips's own formats, whatever bytes a hostile file starts with.
    vips.block_untrusted_set(1);
    static const char *const blocked[] = {
        "VipsForeignLoadMagick", "VipsForeignLoadPdf",    "VipsForeignLoadSvg",    "VipsForeignLoadVips",
        "VipsForeignLoadFits",   "VipsForeignLoadMat",    "VipsForeignLoadCsv",    "VipsForeignLoadMatrix",
        "VipsForeignLoadPpm",    "VipsForeignLoadRad",    "VipsForeignLoadAnalyze", "VipsForeignLoadOpenslide",
        "VipsForeignLoadOpenexr", "VipsForeignLoadNifti", "VipsForeignLoadJp2k",   "VipsForeignLoadRaw",
    };
    for (size_t index = 0; index < sizeof blocked / sizeof blocked[0]; index++) {
        vips.operation_block_set(blocked[index], 1);
    }
    // Each picture is decoded once: a cache of operations would only hold files and memory.
    vips.cache_set_max(0);
    if (requestedThreads > 0) vips.concurrency_set(requestedThreads);
    value.srgb = vips.enum_from_nick("albumkit", vips.interpretation_type(), "srgb");
    value.grey = vips.enum_from_nick("albumkit", vips.interpretation_type(), "b-w");
    value.uchar = vips.enum_from_nick("albumkit", vips.band_format_type(), "uchar");
    value.fitDown = vips.enum_from_nick("albumkit", vips.size_type(), "down");
    value.fitExact = vips.enum_from_nick("albumkit", vips.size_type(), "force");
    value.failNone = vips.enum_from_nick("albumkit", vips.fail_on_type(), "none");
    // "warning": libjpeg reports a scan cut short as a warning, not an error.
    value.failAny = vips.enum_from_nick("albumkit", vips.fail_on_type(), "warning");
    value.centre = vips.enum_from_nick("albumkit", vips.align_type(), "centre");
    value.compassCentre = vips.enum_from_nick("albumkit", vips.compass_type(), "centre");
    value.extendBackground = vips.enum_from_nick("albumkit", vips.extend_type(), "background");
    value.vertical = vips.enum_from_nick("albumkit", vips.direction_type(), "vertical");
    if (value.srgb < 0 || value.grey < 0 || value.uchar < 0 || value.fitDown < 0 || value.fitExact < 0 ||
        value.failNone < 0 || value.failAny < 0 || value.centre < 0 || value.compassCentre < 0 ||
        value.extendBackground < 0 || value.vertical < 0) {
        snprintf(error, errorSize, "libvips lacks an enumeration AlbumKit needs; install libvips42 8.13 or later");
        return -1;
    }
    return 0;
}

int albumkit_vips_load(int threads) {
    requestedThreads = threads;
    return albumkit_library_load(&library, load);
}

const char *albumkit_vips_load_error(void) { return albumkit_library_error(&library); }

int albumkit_vips_vectors_enabled(void) { return vectorsEnabled != NULL && vectorsEnabled() ? 1 : 0; }

const char *albumkit_vips_version(void) { return vips.version_string(); }

// Every function below is reached only after a successful load (the Swift side loads first).

/// `image` decoded into memory, its reference taken (a thumbnail is read from its file or bytes once,
/// as it is made, and can then be encoded more than once and outlive them); NULL on failure.
static albumkit_vips_image *rendered(VipsImage *image) {
    if (image == NULL) return NULL;
    VipsImage *out = vips.copy_memory(image);
    vips.object_unref(image);
    return (albumkit_vips_image *)out;
}

/// `image` (its reference taken) converted to sRGB through the ICC profile it carries, after it was
/// shrunk; an image without one is left as it is (sRGB by convention; a CMYK one is converted by
/// `converted` through libvips's stock CMYK profile). Asking `vips_thumbnail` for an sRGB export
/// instead builds a colour transform for every picture, profile or not: 35 ms of a 384 × 256
/// thumbnail's 46 ms on a loaded machine. A profile that cannot be used leaves the picture as it is.
static VipsImage *inSRGB(VipsImage *image) {
    if (image == NULL || vips.get_typeof(image, "icc-profile-data") == 0) return image;
    VipsImage *out = NULL;
    if (vips.icc_transform(image, &out, "srgb", "embedded", 1, NULL) != 0) {
        // A profile lcms cannot use (damaged, or of another kind): the picture is shown as it is.
        vips.error_clear();
        return image;
    }
    vips.object_unref(image);
    return out;
}

albumkit_vips_image *albumkit_vips_thumbnail_descriptor(int descriptor, int width, int height, int fit, int fail) {
    // A source reading the open file: a name is never parsed (libvips would read "[…]" at the end of
    // one as load options).
    void *source = vips.source_new_from_descriptor(descriptor);
    if (source == NULL) return NULL;
    VipsImage *out = NULL;
    int size = fit == ALBUMKIT_VIPS_FIT_EXACT ? value.fitExact : value.fitDown;
    int failOn = fail ? value.failAny : value.failNone;
    // libvips 8.14 passes `fail_on` to a file's loader but not to a source's: the load options say it too.
    int result = vips.thumbnail_source(source, &out, width, "height", height, "size", size, "fail_on", failOn,
                                       "option_string", fail ? "fail_on=warning" : "", NULL);
    vips.object_unref(source);
    return result == 0 ? rendered(inSRGB(out)) : NULL;
}

albumkit_vips_image *albumkit_vips_thumbnail_bytes(const void *bytes, size_t count, int width, int height, int fit,
                                                  int fail) {
    VipsImage *out = NULL;
    int size = fit == ALBUMKIT_VIPS_FIT_EXACT ? value.fitExact : value.fitDown;
    int failOn = fail ? value.failAny : value.failNone;
    // libvips reads the buffer without changing it; its signature is not const.
    if (vips.thumbnail_buffer((void *)bytes, count, &out, width, "height", height, "size", size, "fail_on", failOn,
                              "option_string", fail ? "fail_on=warning" : "", NULL) != 0) {
        return NULL;
    }
    // Decoded now, while the caller's bytes are alive: the image keeps no pointer into them.
    return rendered(inSRGB(out));
}

albumkit_vips_image *albumkit_vips_thumbnail_rgb(const void *pixels, int width, int height, int targetWidth,
                                                int targetHeight) {
    VipsImage *in = vips.new_from_memory_copy(pixels, (size_t)width * (size_t)height * 3, width, height, 3, value.uchar);
    if (in == NULL) return NULL;
    // Exactly the size asked for: the caller fitted it, the pixels' aspect ratio included.
    VipsImage *out = NULL;
    int result = vips.thumbnail_image(in, &out, targetWidth, "height", targetHeight, "size", value.fitExact, NULL);
    vips.object_unref(in);
    return result == 0 ? rendered(out) : NULL;
}

albumkit_vips_image *albumkit_vips_thumbnail_pixels(const void *pixels, int width, int height, int bands,
                                                   int targetWidth, int targetHeight, int fit) {
    if (width <= 0 || height <= 0 || bands < 1 || bands > 4) return NULL;
    VipsImage *in =
        vips.new_from_memory_copy(pixels, (size_t)width * (size_t)height * (size_t)bands, width, height, bands,
                                  value.uchar);
    if (in == NULL) return NULL;
    VipsImage *named = NULL;
    // Named as what the samples are (libvips would call two bands "multiband", not grey with alpha).
    int result = vips.copy(in, &named, "interpretation", bands <= 2 ? value.grey : value.srgb, NULL);
    vips.object_unref(in);
    if (result != 0) return NULL;
    VipsImage *out = NULL;
    int size = fit == ALBUMKIT_VIPS_FIT_EXACT ? value.fitExact : value.fitDown;
    result = vips.thumbnail_image(named, &out, targetWidth, "height", targetHeight, "size", size, NULL);
    vips.object_unref(named);
    return result == 0 ? rendered(out) : NULL;
}

/// `image` in `space` as 8-bit samples without alpha (flattened on white); a new reference, NULL on
/// failure.
static VipsImage *converted(VipsImage *image, int space) {
    VipsImage *coloured = NULL;
    if (vips.colourspace(image, &coloured, space, NULL) != 0) return NULL;
    VipsImage *flat = coloured;
    if (vips.hasalpha(coloured)) {
        // After the conversion samples are 8-bit: white is 255.
        double ground[3] = {255, 255, 255};
        void *background = vips.array_double_new(ground, space == value.grey ? 1 : 3);
        int result = vips.flatten(coloured, &flat, "background", background, NULL);
        vips.area_unref(background);
        vips.object_unref(coloured);
        if (result != 0) return NULL;
    }
    VipsImage *out = NULL;
    int result = vips.cast(flat, &out, value.uchar, NULL);
    vips.object_unref(flat);
    return result == 0 ? out : NULL;
}

albumkit_vips_image *albumkit_vips_displayable(albumkit_vips_image *image) {
    VipsImage *in = (VipsImage *)image;
    int space = vips.guess_interpretation(in) == value.grey ? value.grey : value.srgb;
    return rendered(converted(in, space));
}

albumkit_vips_image *albumkit_vips_colour(albumkit_vips_image *image) {
    return rendered(converted((VipsImage *)image, value.srgb));
}

albumkit_vips_image *albumkit_vips_grey(albumkit_vips_image *image) {
    return rendered(converted((VipsImage *)image, value.grey));
}

albumkit_vips_image *albumkit_vips_oriented(albumkit_vips_image *image, int orientation) {
    VipsImage *copy = NULL;
    if (vips.copy((VipsImage *)image, &copy, NULL) != 0) return NULL;
    vips.set_int(copy, "orientation", orientation);
    VipsImage *out = NULL;
    int result = vips.autorot(copy, &out, NULL);
    vips.object_unref(copy);
    return result == 0 ? (albumkit_vips_image *)out : NULL;
}

int albumkit_vips_width(const albumkit_vips_image *image) { return vips.get_width((const VipsImage *)image); }
int albumkit_vips_height(const albumkit_vips_image *image) { return vips.get_height((const VipsImage *)image); }
int albumkit_vips_bands(const albumkit_vips_image *image) { return vips.get_bands((const VipsImage *)image); }

int albumkit_vips_jpeg(albumkit_vips_image *image, int quality, void **bytes, size_t *count) {
    *bytes = NULL;
    *count = 0;
    return vips.jpegsave_buffer((VipsImage *)image, bytes, count, "Q", quality, "strip", 1, "optimize_coding", 1,
                                NULL);
}

int albumkit_vips_png(albumkit_vips_image *image, const char *const *keys, const char *const *values, int textCount,
                      void **bytes, size_t *count) {
    *bytes = NULL;
    *count = 0;
    // A copy: the metadata set below must not change an image someone else holds.
    VipsImage *copy = NULL;
    if (vips.copy((VipsImage *)image, &copy, NULL) != 0) return -1;
    static const char *const dropped[] = {"icc-profile-data", "exif-data", "xmp-data", "iptc-data"};
    for (size_t index = 0; index < sizeof dropped / sizeof dropped[0]; index++) vips.remove(copy, dropped[index]);
    // libvips writes a field named "png-comment-N-KEY" as the PNG text chunk KEY.
    char name[256];
    for (int index = 0; index < textCount; index++) {
        snprintf(name, sizeof name, "png-comment-%d-%s", index, keys[index]);
        vips.set_string(copy, name, values[index]);
    }
    int result = vips.pngsave_buffer(copy, bytes, count, "compression", 6, NULL);
    vips.object_unref(copy);
    return result;
}

int albumkit_vips_pixels(albumkit_vips_image *image, void **bytes, size_t *count) {
    *count = 0;
    *bytes = vips.write_to_memory((VipsImage *)image, count);
    return *bytes == NULL ? -1 : 0;
}

albumkit_vips_image *albumkit_vips_join(albumkit_vips_image *const *images, int count, int across, int gap) {
    double ground[3] = {255, 255, 255};
    void *background = vips.array_double_new(ground, 3);
    VipsImage *out = NULL;
    int result = vips.arrayjoin((VipsImage **)images, &out, count, "across", across, "shim", gap, "background",
                                background, "halign", value.centre, "valign", value.centre, NULL);
    vips.area_unref(background);
    return result == 0 ? (albumkit_vips_image *)out : NULL;
}

albumkit_vips_image *albumkit_vips_captioned(albumkit_vips_image *picture, const char *caption, const char *font,
                                            int cellSize) {
    double white[3] = {255, 255, 255};
    void *background = vips.array_double_new(white, 3);
    VipsImage *cell = NULL, *mask = NULL, *ink = NULL, *line = NULL, *out = NULL;
    VipsImage *bands[3];
    int failed = vips.gravity((VipsImage *)picture, &cell, value.compassCentre, cellSize, cellSize, "extend",
                              value.extendBackground, "background", background, NULL) != 0;
    // The caption's mask: 255 where the text is inked, one band, as wide as the text (at most a cell).
    if (!failed) failed = vips.text(&mask, caption, "font", font, "width", cellSize, "align", value.centre, NULL) != 0;
    // Black on white, centred under the picture with a few pixels above it.
    if (!failed) failed = vips.invert(mask, &ink, NULL) != 0;
    if (!failed) {
        int width = vips.get_width(ink), height = vips.get_height(ink);
        double one[1] = {255};
        void *paper = vips.array_double_new(one, 1);
        failed = vips.embed(ink, &line, (cellSize - width) / 2 > 0 ? (cellSize - width) / 2 : 0, 4,
                            width > cellSize ? width : cellSize, height + 4, "extend", value.extendBackground,
                            "background", paper, NULL) != 0;
        vips.area_unref(paper);
    }
    VipsImage *coloured = NULL;
    if (!failed) {
        bands[0] = bands[1] = bands[2] = line;
        failed = vips.bandjoin(bands, &coloured, 3, NULL) != 0;
    }
    if (!failed) {
        // Named sRGB (a three-band join is "multiband"), so the sheet converts no further.
        VipsImage *named = NULL;
        failed = vips.copy(coloured, &named, "interpretation", value.srgb, NULL) != 0;
        if (!failed) {
            failed = vips.join(cell, named, &out, value.vertical, "expand", 1, "background", background, "align",
                               value.centre, NULL) != 0;
            vips.object_unref(named);
        }
    }
    VipsImage *made[] = {cell, mask, ink, line, coloured};
    for (size_t index = 0; index < sizeof made / sizeof made[0]; index++) {
        if (made[index] != NULL) vips.object_unref(made[index]);
    }
    vips.area_unref(background);
    return failed ? NULL : rendered(out);
}

void albumkit_vips_release(albumkit_vips_image *image) {
    if (image != NULL) vips.object_unref(image);
}

void albumkit_vips_free(void *bytes) {
    if (bytes != NULL) vips.free(bytes);
}

char *albumkit_vips_take_error(void) { return vips.error_buffer_copy(); }

#endif  // defined(__linux__)
