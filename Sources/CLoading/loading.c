#include "albumkit_loading.h"

#if defined(__linux__) || defined(__APPLE__)

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void *albumkit_load_library(const char *const *names, size_t nameCount, const albumkit_symbol *symbols,
                            size_t symbolCount, const char *what, const char *package, char *error,
                            size_t errorSize) {
    error[0] = 0;
    for (size_t i = 0; i < nameCount; i++) {
        void *library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            const char *reason = dlerror();
            if (reason != NULL && strstr(reason, strerror(EMFILE)) != NULL) {
                // Not a missing package: the process has no file descriptor left to open it with.
                snprintf(error, errorSize, "%s could not be loaded: too many open files; raise `ulimit -n`", what);
                return NULL;
            }
            // The first name's reason: it is the one the package installs.
            if (error[0] == 0) {
                snprintf(error, errorSize, "%s could not be loaded (%s); install %s", what,
                         reason ? reason : "not found", package);
            }
            continue;
        }
        size_t bound = 0;
        // POSIX's way to store dlsym's result in a function pointer.
        while (bound < symbolCount && (*symbols[bound].slot = dlsym(library, symbols[bound].name)) != NULL) bound++;
        if (bound == symbolCount) return library;
        snprintf(error, errorSize, "%s lacks %s; install %s", what, symbols[bound].name, package);
        dlclose(library);
    }
    return NULL;
}

#if defined(__linux__)

int albumkit_library_load(albumkit_library *library, int (*load)(char *error, size_t errorSize)) {
    if (__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&library->lock);
    int result = 0;
    if (!library->loaded) {
        result = load(library->error, sizeof library->error);
        if (result == 0) __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&library->lock);
    return result;
}

const char *albumkit_library_error(albumkit_library *library) {
    static _Thread_local char copy[sizeof library->error];
    pthread_mutex_lock(&library->lock);
    memcpy(copy, library->error, sizeof copy);
    pthread_mutex_unlock(&library->lock);
    return copy;
}

double albumkit_monotonic_seconds(void) {
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return (double)clock.tv_sec + (double)clock.tv_nsec / 1e9;
}

#endif  // defined(__linux__)

#endif
