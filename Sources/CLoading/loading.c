#include "albumkit_loading.h"

#if defined(__linux__) || defined(__APPLE__)

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

void *albumkit_load_library(const char *const *names, size_t nameCount, const albumkit_symbol *symbols,
                            size_t symbolCount, const char *what, const char *package, char *error,
                            size_t errorSize) {
    void *library = NULL;
    for (size_t i = 0; i < nameCount && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *reason = dlerror();
        if (reason != NULL && strstr(reason, strerror(EMFILE)) != NULL) {
            // Not a missing package: the process has no file descriptor left to open it with.
            snprintf(error, errorSize, "%s could not be loaded: too many open files; raise `ulimit -n`", what);
        } else {
            snprintf(error, errorSize, "%s could not be loaded (%s); install %s", what, reason ? reason : "not found",
                     package);
        }
        return NULL;
    }
    for (size_t i = 0; i < symbolCount; i++) {
        // POSIX's way to store dlsym's result in a function pointer.
        if ((*symbols[i].slot = dlsym(library, symbols[i].name)) == NULL) {
            snprintf(error, errorSize, "%s lacks %s; install %s", what, symbols[i].name, package);
            return NULL;
        }
    }
    return library;
}

#endif
