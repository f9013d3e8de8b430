#ifdef __linux__
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "CShims.h"

int albumkit_open_tmpfile(int dir_fd, unsigned int mode) {
    return openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)mode);
}

int albumkit_rename_noreplace(int old_dir, const char *old_name, int new_dir, const char *new_name) {
    return renameat2(old_dir, old_name, new_dir, new_name, RENAME_NOREPLACE);
}

int albumkit_syncfs(int fd) {
    return syncfs(fd);
}
#endif
