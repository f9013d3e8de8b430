#ifdef __linux__
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <spawn.h>
#include <unistd.h>
#include "CShims.h"

int albumkit_open_tmpfile(int dir_fd, unsigned int mode) {
    return openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)mode);
}

int albumkit_rename_noreplace(int old_dir, const char *old_name, int new_dir, const char *new_name) {
    return renameat2(old_dir, old_name, new_dir, new_name, RENAME_NOREPLACE);
}

int albumkit_reserve_after_end(int fd, long long offset, long long length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
}

int albumkit_syncfs(int fd) {
    return syncfs(fd);
}

int albumkit_clone(int dest_fd, int src_fd) {
    return ioctl(dest_fd, FICLONE, src_fd);
}

long albumkit_copy_range(int src_fd, int dest_fd, long long offset, unsigned long count) {
    off64_t in = (off64_t)offset, out = (off64_t)offset;
    return (long)copy_file_range(src_fd, &in, dest_fd, &out, (size_t)count, 0);
}

long albumkit_random(void *buffer, unsigned long length) {
    return (long)getrandom(buffer, (size_t)length, 0);
}

int albumkit_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)count, SYNC_FILE_RANGE_WRITE);
}

long long albumkit_filesystem_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long long)(unsigned long)info.f_type;
}

long long albumkit_unique_mount_id(const char *path) {
    const unsigned int unique = 0x4000U; /* STATX_MNT_ID_UNIQUE, newer than these headers */
    struct statx status;
    if (statx(AT_FDCWD, path, 0, unique, &status) != 0) return -1;
    return (status.stx_mask & unique) ? (long long)status.stx_mnt_id : 0;
}

int albumkit_open_beneath(int root_fd, const char *path, int flags) {
#ifdef SYS_openat2
    struct open_how how = {0};
    how.flags = (unsigned long long)(unsigned int)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof how);
    /* A seccomp filter that does not know openat2 may answer EPERM: treated as missing. */
    if (fd < 0 && (errno == EPERM || errno == E2BIG)) errno = ENOSYS;
    return (int)fd;
#else
    (void)root_fd; (void)path; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

int albumkit_lower_thread_priority(void) {
    return setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
}

int albumkit_thread_priority(void) {
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t)gettid());
    return (nice == -1 && errno != 0) ? -100 : nice;
}

int albumkit_spawn_close_from(void *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

#endif
