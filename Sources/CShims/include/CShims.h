#ifndef ALBUMKIT_CSHIMS_H
#define ALBUMKIT_CSHIMS_H

// Plain prototypes only: the definitions live in shims.c, compiled with _GNU_SOURCE, so this
// header pulls in no system header whose definitions could disagree with Swift's Glibc module.

/// Opens an unnamed, invisible file in `dir_fd` (`O_TMPFILE`). Returns -1 and sets errno on failure.
int albumkit_open_tmpfile(int dir_fd, unsigned int mode);

/// Renames without replacing an existing name (`renameat2(..., RENAME_NOREPLACE)`).
int albumkit_rename_noreplace(int old_dir, const char *old_name, int new_dir, const char *new_name);

/// Flushes the whole file system holding `fd` (`syncfs`).
int albumkit_syncfs(int fd);

#endif
