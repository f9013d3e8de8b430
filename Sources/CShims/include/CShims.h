#ifndef ALBUMKIT_CSHIMS_H
#define ALBUMKIT_CSHIMS_H

// Plain prototypes only: the definitions live in shims.c, compiled with _GNU_SOURCE, so this
// header pulls in no system header whose definitions could disagree with Swift's Glibc module.

/// Opens an unnamed, invisible file in `dir_fd` (`O_TMPFILE`). Returns -1 and sets errno on failure.
int albumkit_open_tmpfile(int dir_fd, unsigned int mode);

/// Renames without replacing an existing name (`renameat2(..., RENAME_NOREPLACE)`).
int albumkit_rename_noreplace(int old_dir, const char *old_name, int new_dir, const char *new_name);

/// Allocates `length` bytes of disk for `fd` from `offset` on without changing its size
/// (`fallocate(FALLOC_FL_KEEP_SIZE)`). Returns -1 and sets errno (`ENOSPC`, `EOPNOTSUPP`, …).
int albumkit_reserve_after_end(int fd, long long offset, long long length);

/// Flushes the whole file system holding `fd` (`syncfs`).
int albumkit_syncfs(int fd);

/// Makes `dest_fd` share `src_fd`'s blocks (`ioctl(FICLONE)`, a reflink; Btrfs, XFS, bcachefs).
/// Returns -1 and sets errno (`EOPNOTSUPP`, `EXDEV`, `EINVAL`, …) where the file system cannot.
int albumkit_clone(int dest_fd, int src_fd);

/// Copies up to `count` bytes at `offset` of `src_fd` to the same offset of `dest_fd` inside the
/// kernel (`copy_file_range`). Returns the count copied (0 at the end), or -1 and sets errno.
long albumkit_copy_range(int src_fd, int dest_fd, long long offset, unsigned long count);

/// Starts writeback of `count` bytes at `offset` of `fd` without waiting for it
/// (`sync_file_range(SYNC_FILE_RANGE_WRITE)`): a hint; durability still comes from fsync/syncfs.
int albumkit_start_writeback(int fd, long long offset, long long count);

/// Fills `buffer` with `length` random bytes from the kernel (`getrandom`). Returns the count filled,
/// or -1 and sets errno.
long albumkit_random(void *buffer, unsigned long length);

/// The type of the file system holding `path` (`statfs`'s `f_type`: `0x6969` NFS, `0x65735546`
/// FUSE, …). Returns -1 and sets errno on failure.
long long albumkit_filesystem_type(const char *path);

/// The mount of `path`'s identifier that is never reused while the machine runs (`statx`'s
/// `STATX_MNT_ID_UNIQUE`, Linux 6.8 and later): another one after an unmount and a mount of the same
/// device, where the plain mount id and the device number come back the same. Returns 0 where the
/// kernel does not give it, or -1 and sets errno.
long long albumkit_unique_mount_id(const char *path);

/// Opens `path` (relative, several levels) beneath the folder `root_fd` with `flags`, never leaving
/// it and following no symbolic link at any level (`openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`, Linux 5.6 and later). Returns -1 and sets errno:
/// `ELOOP` for a link, `EXDEV` for a path leading out, `ENOSYS` where the kernel (or a seccomp
/// filter) has no `openat2`, so the caller opens level by level instead.
int albumkit_open_beneath(int root_fd, const char *path, int flags);

/// Gives the calling thread alone the lowest scheduling priority (`setpriority` of its thread id
/// to nice 19): work nobody waits for yields to everything else. Returns -1 and sets errno on failure.
int albumkit_lower_thread_priority(void);

/// The calling thread's nice value (-20 to 19), or -100 and errno set on failure.
int albumkit_thread_priority(void);

/// Adds to `actions` (a `posix_spawn_file_actions_t *`) the closing of every descriptor from
/// `lowest` up in the child (`posix_spawn_file_actions_addclosefrom_np`): a child spawned while
/// another thread holds a pipe for its own child inherits nothing of it. Returns 0, or an errno
/// (`ENOSYS` before glibc 2.34).
int albumkit_spawn_close_from(void *actions, int lowest);

#endif
