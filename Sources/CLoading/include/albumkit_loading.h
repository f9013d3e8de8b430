// Loading a C library at run time (dlopen), shared by the libcrypto, libpq and libcurl loaders:
// what only some commands need is not loaded when `album` starts, and AlbumKit builds without
// those libraries' development files.
#ifndef ALBUMKIT_LOADING_H
#define ALBUMKIT_LOADING_H

#include <stddef.h>

/// One symbol to bind: its name, and the function pointer its address is stored in.
typedef struct {
    const char *name;
    void **slot;
} albumkit_symbol;

/// Opens the first of `names` that loads and binds every symbol of `symbols`. Returns the library
/// handle, or NULL with the reason in `error` ("<what> could not be loaded (…); install <package>",
/// or "<what> lacks <symbol>; install <package>").
void *albumkit_load_library(const char *const *names, size_t nameCount, const albumkit_symbol *symbols,
                            size_t symbolCount, const char *what, const char *package, char *error,
                            size_t errorSize);

#endif
