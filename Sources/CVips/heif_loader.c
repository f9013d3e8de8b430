#include "albumkit_heif.h"

// Only Linux loads libheif at run time; elsewhere this file is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libheif's names for what is declared here (its headers are not needed to build).
typedef struct heif_context heif_context;
typedef struct heif_image_handle heif_image_handle;
typedef struct heif_image heif_image;
typedef struct {
    int code;
    int subcode;
    const char *message;
} heif_error;

// heif_colorspace_RGB, heif_chroma_interleaved_RGB and heif_channel_interleaved.
enum { COLOURSPACE_RGB = 1, CHROMA_INTERLEAVED_RGB = 10, CHANNEL_INTERLEAVED = 10 };

static struct {
    heif_context *(*contextAlloc)(void);
    void (*contextFree)(heif_context *);
    heif_error (*readFromMemory)(heif_context *, const void *, size_t, const void *);
    void (*setMaximumImageSizeLimit)(heif_context *, int);
    heif_error (*primaryImageHandle)(heif_context *, heif_image_handle **);
    int (*handleWidth)(const heif_image_handle *);
    int (*handleHeight)(const heif_image_handle *);
    heif_error (*decodeImage)(const heif_image_handle *, heif_image **, int, int, const void *);
    int (*imageWidth)(const heif_image *, int);
    int (*imageHeight)(const heif_image *, int);
    const uint8_t *(*planeReadonly)(const heif_image *, int, int *);
    void (*imageRelease)(const heif_image *);
    void (*handleRelease)(const heif_image_handle *);
} heif;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libheif.so.1", "libheif.1.dylib", "libheif.dylib"};
    const albumkit_symbol symbols[] = {
        {"heif_context_alloc", (void **)&heif.contextAlloc},
        {"heif_context_free", (void **)&heif.contextFree},
        {"heif_context_read_from_memory_without_copy", (void **)&heif.readFromMemory},
        {"heif_context_set_maximum_image_size_limit", (void **)&heif.setMaximumImageSizeLimit},
        {"heif_context_get_primary_image_handle", (void **)&heif.primaryImageHandle},
        {"heif_image_handle_get_width", (void **)&heif.handleWidth},
        {"heif_image_handle_get_height", (void **)&heif.handleHeight},
        {"heif_decode_image", (void **)&heif.decodeImage},
        {"heif_image_get_width", (void **)&heif.imageWidth},
        {"heif_image_get_height", (void **)&heif.imageHeight},
        {"heif_image_get_plane_readonly", (void **)&heif.planeReadonly},
        {"heif_image_release", (void **)&heif.imageRelease},
        {"heif_image_handle_release", (void **)&heif.handleRelease},
    };
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "libheif", "libheif1", error, errorSize);
    return handle == NULL ? -1 : 0;
}

int albumkit_heif_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_heif_load_error(void) { return albumkit_library_error(&library); }

int albumkit_heif_rgb(const void *bytes, size_t count, long long maxPixels, void **pixels, int *width, int *height,
                      char *error, size_t errorSize) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    heif_context *context = heif.contextAlloc();
    if (context == NULL) {
        snprintf(error, errorSize, "libheif could not start reading");
        return -1;
    }
    heif_image_handle *handle = NULL;
    heif_image *image = NULL;
    int result = -1;
    // No side longer than the largest picture's could be (libheif refuses larger ones as it reads).
    heif.setMaximumImageSizeLimit(context, 65535);
    heif_error status = heif.readFromMemory(context, bytes, count, NULL);
    if (status.code == 0) status = heif.primaryImageHandle(context, &handle);
    if (status.code != 0) {
        snprintf(error, errorSize, "libheif: %s", status.message ? status.message : "not a HEIF file it reads");
        goto done;
    }
    long long w = heif.handleWidth(handle), h = heif.handleHeight(handle);
    if (w <= 0 || h <= 0 || w * h > maxPixels) {
        snprintf(error, errorSize, "the HEIF image is %lld × %lld pixels, more than the %lld AlbumKit decodes", w, h,
                 maxPixels);
        goto done;
    }
    // Turned and mirrored as its `irot`/`imir` say (the default decoding options).
    status = heif.decodeImage(handle, &image, COLOURSPACE_RGB, CHROMA_INTERLEAVED_RGB, NULL);
    if (status.code != 0) {
        snprintf(error, errorSize, "libheif: %s", status.message ? status.message : "the image does not decode");
        goto done;
    }
    int stride = 0;
    const uint8_t *plane = heif.planeReadonly(image, CHANNEL_INTERLEAVED, &stride);
    int decodedWidth = heif.imageWidth(image, CHANNEL_INTERLEAVED);
    int decodedHeight = heif.imageHeight(image, CHANNEL_INTERLEAVED);
    if (plane == NULL || decodedWidth <= 0 || decodedHeight <= 0 || stride < decodedWidth * 3 ||
        (long long)decodedWidth * decodedHeight > maxPixels) {
        snprintf(error, errorSize, "libheif gave no usable pixels");
        goto done;
    }
    unsigned char *out = malloc((size_t)decodedWidth * (size_t)decodedHeight * 3);
    if (out == NULL) {
        snprintf(error, errorSize, "no memory for %d × %d pixels", decodedWidth, decodedHeight);
        goto done;
    }
    for (int row = 0; row < decodedHeight; row++) {
        memcpy(out + (size_t)row * decodedWidth * 3, plane + (size_t)row * stride, (size_t)decodedWidth * 3);
    }
    *pixels = out;
    *width = decodedWidth;
    *height = decodedHeight;
    result = 0;
done:
    if (image != NULL) heif.imageRelease(image);
    if (handle != NULL) heif.handleRelease(handle);
    heif.contextFree(context);
    return result;
}

void albumkit_heif_free(void *pixels) { free(pixels); }

#endif  // defined(__linux__)
