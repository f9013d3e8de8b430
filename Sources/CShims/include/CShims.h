#ifndef ALBUMKIT_CSHIMS_H
#define ALBUMKIT_CSHIMS_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <sys/types.h>

/// Opens an unnamed, invisible file in `dir_fd` (`O_TMPFILE`). Returns -1 and sets errno on failure.
static inline int albumkit_open_tmpfile(int dir_fd, mode_t mode) {
    return openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

/// Renames without replacing an existing name (`renameat2(..., RENAME_NOREPLACE)`).
static inline int albumkit_rename_noreplace(int old_dir, const char *old_name, int new_dir, const char *new_name) {
    return renameat2(old_dir, old_name, new_dir, new_name, RENAME_NOREPLACE);
}

/// Flushes the whole file system holding `fd` (`syncfs`).
static inline int albumkit_syncfs(int fd) {
    return syncfs(fd);
}

/// `O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC | O_RDONLY`, for opening directories without following symlinks.
static inline int albumkit_open_directory_flags(void) {
    return O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
}

static inline int albumkit_errno(void) { return errno; }
#endif

#endif
