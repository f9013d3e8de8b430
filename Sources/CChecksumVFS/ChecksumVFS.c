// AlbumKit's page-checksum VFS (see include/CChecksumVFS.h). Written for AlbumKit after SQLite's
// documented design: the reserved bytes at the end of each page hold a checksum of the rest.

#include "CChecksumVFS.h"

#include "albumkit_sqlite.h"
#include <stdint.h>
#include <string.h>

// MARK: The checksum

static uint64_t rotate_left(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

static uint64_t load_little_endian(const unsigned char *bytes) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) value = (value << 8) | bytes[i];
    return value;
}

// Two lanes over alternate 8-byte words; each step (xor, rotate, multiply by an odd constant) is
// a bijection of the lane, so changing any single word always changes the result.
static uint64_t page_checksum(const unsigned char *page, int length) {
    uint64_t lanes[2] = {0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL};
    static const uint64_t multipliers[2] = {0x9E3779B97F4A7C15ULL, 0xD6E8FEB86659FD93ULL};
    int words = length / 8;
    for (int w = 0; w < words; w++) {
        int lane = w & 1;
        lanes[lane] = rotate_left(lanes[lane] ^ load_little_endian(page + 8 * w), 27) * multipliers[lane];
    }
    uint64_t result = lanes[0] ^ rotate_left(lanes[1], 32) ^ (uint64_t)length;
    result ^= result >> 31;
    result *= 0xBF58476D1CE4E5B9ULL;
    result ^= result >> 29;
    return result;
}

static void store_little_endian(unsigned char *bytes, uint64_t value) {
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

// Whether a read or write of `amount` bytes at `offset` is one whole page.
static int is_whole_page(int amount, sqlite3_int64 offset) {
    return amount >= 512 && amount <= 65536 && (amount & (amount - 1)) == 0 && offset % amount == 0;
}

// Whether `header` (at least 100 bytes) starts a database whose pages reserve room for the checksum.
static int header_reserves_checksum(const unsigned char *header) {
    return memcmp(header, "SQLite format 3", 16) == 0 && header[20] == ALBUMKIT_CHECKSUM_BYTES;
}

// MARK: Files

typedef struct ChecksumFile {
    sqlite3_file base;  // first: SQLite sees a ChecksumFile as a sqlite3_file
    sqlite3_file *real;  // the wrapped file, stored right after this struct
    int isMainDatabase;
    int verifies;
    int carriesChecksums;  // the main database's header reserves the checksum bytes
} ChecksumFile;

typedef struct ChecksumVFSData {
    sqlite3_vfs *real;
    int verifies;
} ChecksumVFSData;

#define REAL(file) (((ChecksumFile *)(file))->real)

// Reads the header from the file itself: the state can change under this connection (another
// process upgraded the database, or this one wrote page 1 only to the WAL so far).
static void probe_header(ChecksumFile *file) {
    unsigned char header[100];
    if (file->real->pMethods->xRead(file->real, header, 100, 0) == SQLITE_OK) {
        file->carriesChecksums = header_reserves_checksum(header);
    }
}

static int checksum_close(sqlite3_file *file) { return REAL(file)->pMethods->xClose(REAL(file)); }

static int checksum_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    ChecksumFile *file = (ChecksumFile *)base;
    int rc = file->real->pMethods->xRead(file->real, buffer, amount, offset);
    if (rc != SQLITE_OK || !file->isMainDatabase) return rc;
    const unsigned char *bytes = buffer;
    if (offset == 0 && amount >= 100) {
        file->carriesChecksums = header_reserves_checksum(bytes);
    } else if (!file->carriesChecksums && is_whole_page(amount, offset)) {
        probe_header(file);
    }
    if (file->verifies && file->carriesChecksums && is_whole_page(amount, offset)) {
        int length = amount - ALBUMKIT_CHECKSUM_BYTES;
        unsigned char expected[ALBUMKIT_CHECKSUM_BYTES];
        store_little_endian(expected, page_checksum(bytes, length));
        if (memcmp(expected, bytes + length, ALBUMKIT_CHECKSUM_BYTES) != 0) return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

static int checksum_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    ChecksumFile *file = (ChecksumFile *)base;
    if (!file->isMainDatabase || !is_whole_page(amount, offset)) {
        return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
    if (offset == 0) {
        file->carriesChecksums = header_reserves_checksum(buffer);
    } else if (!file->carriesChecksums) {
        probe_header(file);
    }
    if (!file->carriesChecksums) return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    // The caller's page stays as it is: the checksum goes into a copy.
    unsigned char local[8192];
    unsigned char *page = amount <= (int)sizeof(local) ? local : albumkit_sqlite3_malloc(amount);
    if (page == NULL) return SQLITE_IOERR_NOMEM;
    memcpy(page, buffer, (size_t)amount);
    int length = amount - ALBUMKIT_CHECKSUM_BYTES;
    store_little_endian(page + length, page_checksum(page, length));
    int rc = file->real->pMethods->xWrite(file->real, page, amount, offset);
    if (page != local) albumkit_sqlite3_free(page);
    return rc;
}

static int checksum_truncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int checksum_sync(sqlite3_file *file, int flags) { return REAL(file)->pMethods->xSync(REAL(file), flags); }
static int checksum_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int checksum_lock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int checksum_unlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int checksum_check_reserved_lock(sqlite3_file *file, int *out) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int checksum_file_control(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}
static int checksum_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int checksum_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int checksum_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, out);
}
static int checksum_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}
static void checksum_shm_barrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int checksum_shm_unmap(sqlite3_file *file, int delete) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete);
}
// Memory-mapped pages would bypass the verification: the main database is always read with xRead.
static int checksum_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
    ChecksumFile *file = (ChecksumFile *)base;
    if (file->isMainDatabase) {
        *out = NULL;
        return SQLITE_OK;
    }
    return file->real->pMethods->xFetch(file->real, offset, amount, out);
}
static int checksum_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    ChecksumFile *file = (ChecksumFile *)base;
    if (file->isMainDatabase && page != NULL) return SQLITE_OK;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods checksum_io_methods = {
    3,
    checksum_close,
    checksum_read,
    checksum_write,
    checksum_truncate,
    checksum_sync,
    checksum_file_size,
    checksum_lock,
    checksum_unlock,
    checksum_check_reserved_lock,
    checksum_file_control,
    checksum_sector_size,
    checksum_device_characteristics,
    checksum_shm_map,
    checksum_shm_lock,
    checksum_shm_barrier,
    checksum_shm_unmap,
    checksum_fetch,
    checksum_unfetch,
};

// MARK: The VFS

#define REAL_VFS(vfs) (((ChecksumVFSData *)(vfs)->pAppData)->real)

static int checksum_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    ChecksumFile *file = (ChecksumFile *)base;
    ChecksumVFSData *data = vfs->pAppData;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)&file[1];
    int rc = data->real->xOpen(data->real, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        file->base.pMethods = NULL;  // the real VFS released what it opened; no xClose follows
        return rc;
    }
    if (file->real->pMethods->iVersion < 3) {
        file->real->pMethods->xClose(file->real);
        file->base.pMethods = NULL;
        return SQLITE_CANTOPEN;
    }
    file->isMainDatabase = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    file->verifies = data->verifies;
    file->base.pMethods = &checksum_io_methods;
    if (file->isMainDatabase) probe_header(file);
    return SQLITE_OK;
}

static int checksum_delete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    return REAL_VFS(vfs)->xDelete(REAL_VFS(vfs), name, syncDirectory);
}
static int checksum_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    return REAL_VFS(vfs)->xAccess(REAL_VFS(vfs), name, flags, out);
}
static int checksum_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return REAL_VFS(vfs)->xFullPathname(REAL_VFS(vfs), name, size, out);
}
static void *checksum_dl_open(sqlite3_vfs *vfs, const char *path) { return REAL_VFS(vfs)->xDlOpen(REAL_VFS(vfs), path); }
static void checksum_dl_error(sqlite3_vfs *vfs, int size, char *out) { REAL_VFS(vfs)->xDlError(REAL_VFS(vfs), size, out); }
static void (*checksum_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    return REAL_VFS(vfs)->xDlSym(REAL_VFS(vfs), handle, symbol);
}
static void checksum_dl_close(sqlite3_vfs *vfs, void *handle) { REAL_VFS(vfs)->xDlClose(REAL_VFS(vfs), handle); }
static int checksum_randomness(sqlite3_vfs *vfs, int size, char *out) {
    return REAL_VFS(vfs)->xRandomness(REAL_VFS(vfs), size, out);
}
static int checksum_sleep(sqlite3_vfs *vfs, int microseconds) {
    return REAL_VFS(vfs)->xSleep(REAL_VFS(vfs), microseconds);
}
static int checksum_current_time(sqlite3_vfs *vfs, double *out) {
    return REAL_VFS(vfs)->xCurrentTime(REAL_VFS(vfs), out);
}
static int checksum_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    return REAL_VFS(vfs)->xGetLastError ? REAL_VFS(vfs)->xGetLastError(REAL_VFS(vfs), size, out) : 0;
}
static int checksum_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    sqlite3_vfs *real = REAL_VFS(vfs);
    if (real->iVersion >= 2 && real->xCurrentTimeInt64) return real->xCurrentTimeInt64(real, out);
    double days = 0;
    int rc = real->xCurrentTime(real, &days);
    *out = (sqlite3_int64)(days * 86400000.0);
    return rc;
}

static ChecksumVFSData verifying_data = {NULL, 1};
static ChecksumVFSData unverified_data = {NULL, 0};

#define CHECKSUM_VFS(vfsName, appData)                                                                          \
    {                                                                                                          \
        2, 0, 1024, NULL, vfsName, &appData, checksum_open, checksum_delete, checksum_access,                  \
            checksum_full_pathname, checksum_dl_open, checksum_dl_error, checksum_dl_sym, checksum_dl_close,   \
            checksum_randomness, checksum_sleep, checksum_current_time, checksum_get_last_error,               \
            checksum_current_time_int64, NULL, NULL, NULL                                                      \
    }

static sqlite3_vfs verifying_vfs = CHECKSUM_VFS("albumkit-checksum", verifying_data);
static sqlite3_vfs unverified_vfs = CHECKSUM_VFS("albumkit-checksum-unverified", unverified_data);

const char *albumkit_checksum_vfs_verifying(void) { return verifying_vfs.zName; }
const char *albumkit_checksum_vfs_unverified(void) { return unverified_vfs.zName; }

int albumkit_checksum_vfs_register(void) {
    if (albumkit_sqlite3_vfs_find(verifying_vfs.zName) != NULL) return SQLITE_OK;
    sqlite3_vfs *real = albumkit_sqlite3_vfs_find(NULL);
    if (real == NULL) return SQLITE_ERROR;
    verifying_data.real = real;
    unverified_data.real = real;
    int size = (int)sizeof(ChecksumFile) + real->szOsFile;
    verifying_vfs.szOsFile = size;
    unverified_vfs.szOsFile = size;
    verifying_vfs.mxPathname = real->mxPathname;
    unverified_vfs.mxPathname = real->mxPathname;
    int rc = albumkit_sqlite3_vfs_register(&verifying_vfs, 0);
    if (rc == SQLITE_OK) rc = albumkit_sqlite3_vfs_register(&unverified_vfs, 0);
    return rc;
}

int albumkit_checksum_set_reserve(void *db, const char *schema, int reserve) {
    return albumkit_sqlite3_file_control((sqlite3 *)db, schema, SQLITE_FCNTL_RESERVE_BYTES, &reserve);
}

int albumkit_checksum_reserve(void *db, const char *schema) {
    int reserve = -1;
    int rc = albumkit_sqlite3_file_control((sqlite3 *)db, schema, SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    return rc == SQLITE_OK ? reserve : -1;
}
