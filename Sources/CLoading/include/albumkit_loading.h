// Loading a C library at run time (dlopen), shared by the SQLite, libcrypto, libpq and libcurl
// loaders: what only some commands need is not loaded when `album` starts, and AlbumKit builds
// without those libraries' development files (SQLite's header excepted).
#ifndef ALBUMKIT_LOADING_H
#define ALBUMKIT_LOADING_H

#include <stddef.h>

/// One symbol to bind: its name, and the function pointer its address is stored in.
typedef struct {
    const char *name;
    void **slot;
} albumkit_symbol;

/// Opens the first of `names` that loads and binds every symbol of `symbols`. Returns the library
/// handle, or NULL with the reason in `error`: "<what> could not be loaded (…); install <package>"
/// (the first name's reason), "<what> lacks <symbol>; install <package>", or, when the process
/// has no file descriptor left, "<what> could not be loaded: too many open files; raise `ulimit -n`".
void *albumkit_load_library(const char *const *names, size_t nameCount, const albumkit_symbol *symbols,
                            size_t symbolCount, const char *what, const char *package, char *error,
                            size_t errorSize);

#if defined(__linux__)
#include <pthread.h>

/// A library loaded by the first attempt that succeeds. A failed attempt (not installed, or no
/// file descriptor left) is not remembered: the next call tries again, so a process that once
/// ran out of descriptors can still load it later.
typedef struct {
    pthread_mutex_t lock;
    int loaded;
    char error[512];
} albumkit_library;

#define ALBUMKIT_LIBRARY_INIT {PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/// 0 once `load` has succeeded (it is never called again then); otherwise calls `load` under the
/// lock (it returns 0 on success, or -1 with its reason written to `error`) and returns its result.
int albumkit_library_load(albumkit_library *library, int (*load)(char *error, size_t errorSize));

/// Why the last attempt failed (a copy for the calling thread, valid until its next call).
const char *albumkit_library_error(albumkit_library *library);

/// The field of a loaded library's structure at `offset` bytes into `base`, for structures AlbumKit
/// declares no type for (each loader's tests check its offsets against the library's own header).
#define ALBUMKIT_FIELD(type, base, offset) (*(type *)((char *)(base) + (offset)))

/// Seconds on the monotonic clock: a decode's deadline, whatever the wall clock does.
double albumkit_monotonic_seconds(void);

#endif  // defined(__linux__)

#endif
