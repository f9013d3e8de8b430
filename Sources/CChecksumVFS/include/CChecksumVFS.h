#ifndef ALBUMKIT_CHECKSUM_VFS_H
#define ALBUMKIT_CHECKSUM_VFS_H

// A SQLite VFS that keeps an 8-byte checksum in the reserved bytes at the end of every page of
// a main database file whose header asks for 8 reserved bytes: computed when a page is written,
// verified whenever a whole page is read (SQLITE_IOERR_DATA on a mismatch). Every other file
// (WAL, journals, databases without the reserved bytes) passes through unchanged.
//
// Two names wrap the default VFS: `albumkit_checksum_vfs_verifying` verifies and writes checksums;
// `albumkit_checksum_vfs_unverified` writes checksums but reads damaged pages as they are (for
// salvaging what is readable from a damaged database).

/// The number of reserved bytes per page the checksum occupies.
#define ALBUMKIT_CHECKSUM_BYTES 8

/// The name of the verifying VFS.
const char *albumkit_checksum_vfs_verifying(void);

/// The name of the VFS that does not verify reads.
const char *albumkit_checksum_vfs_unverified(void);

/// Registers both VFSes (not as the default); safe to call more than once. Returns a SQLite
/// result code.
int albumkit_checksum_vfs_register(void);

/// Sets the number of reserved bytes per page of `schema` ("main") of the open connection `db`
/// (a `sqlite3 *`): takes effect for a new database, or an existing one at its next VACUUM.
/// Returns a SQLite result code.
int albumkit_checksum_set_reserve(void *db, const char *schema, int reserve);

/// The number of reserved bytes per page of `schema` of `db` (a `sqlite3 *`), or -1 on error.
int albumkit_checksum_reserve(void *db, const char *schema);

#endif
