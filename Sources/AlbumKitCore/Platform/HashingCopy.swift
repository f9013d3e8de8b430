import Dispatch
import Foundation

/// Copies a file into another and returns the SHA-256 of every byte copied, as fast as the file
/// system allows, refusing a source that changed while it was copied.
///
/// - The bytes move inside the kernel: a reflink (`FICLONE`) where the file system shares blocks,
///   else `copy_file_range`, else reads and writes.
/// - Files of ``parallelThreshold`` bytes or more are hashed on a second thread that reads the
///   source (from the page cache the copy also reads) while the kernel copies, and writeback of
///   each copied stretch starts at once (`sync_file_range`), so the final flush has little left.
/// - Smaller files are read, hashed and written in one pass: the same two copies of the bytes as
///   a kernel copy followed by a read for the hash, in fewer calls, and a batch already keeps every
///   core busy with other files. Their writeback starts when they are written.
/// - The source's version (device, inode, size, modification and change times) is taken before
///   and after: any difference, or a byte count that does not match, fails with ``Failure/changed``.
///
/// ```swift
/// let copied = try HashingCopy.copy(source, to: staged.descriptor, expecting: version)
/// print(copied.sha256)
/// ```
package enum HashingCopy {
    /// Files this large or larger hash on a second thread while the kernel copies.
    package static let parallelThreshold: UInt64 = 8 << 20
    /// Files this small or smaller are read whole, in one `pread`, when a save opens them
    /// (``MediaReader``): inspected, hashed and copied from memory instead of read three times.
    package static let wholeFileLimit: UInt64 = 1 << 20
    /// Writeback is started after every stretch of this many bytes.
    static let stretch = 8 << 20

    /// Why a copy failed: reading the source, writing the destination, or the source changed.
    package enum Failure: Error {
        case source(SystemError)
        case destination(SystemError)
        case changed
    }

    /// The SHA-256 (lowercase hex) of the bytes copied, and their count.
    package struct Copied: Sendable {
        package var sha256: String
        package var byteCount: UInt64
    }

    /// Source devices where reflinks failed: not tried again from them in this process.
    private static let noReflink = Locked<Set<UInt64>>([])

    /// Copies all of `source` into the empty `destination`.
    ///
    /// - Parameter expected: the version the caller saw when it opened (and inspected) the source;
    ///   the source must still be that version after the copy. Without it, the version is taken now.
    package static func copy(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor,
        expecting expected: FileSystem.FileVersion? = nil
    ) throws(Failure) -> Copied {
        let before: FileSystem.FileVersion
        if let expected {
            before = expected
        } else {
            before = try classified(source) { () throws(SystemError) in try FileSystem.version(of: source) }
        }
        let copied: Copied
        if try reflink(source, to: destination, device: before.device) {
            copied = try hash(source, size: before.size)
        } else if before.size >= parallelThreshold {
            copied = try copyWhileHashing(source, to: destination, size: before.size)
        } else {
            // Writeback starts as soon as the photo is written: the disk works while the next photos
            // are hashed, and the batch's one flush waits only for the tail. (Without it the whole
            // batch was written out after the last photo: 300 photos took about 1.3× as long on a quiet disk.)
            copied = try copyInOnePass(source, to: destination, size: before.size)
            FileSystem.startWriteback(destination, at: 0, count: copied.byteCount)
        }
        let after = try classified(source) { () throws(SystemError) in try FileSystem.version(of: source) }
        guard after == before, copied.byteCount == before.size else { throw .changed }
        return copied
    }

    /// The SHA-256 of all of `source`, read where it is (no copy), refusing a source that is no
    /// longer `expected` afterwards (``Failure/changed``).
    package static func hash(
        _ source: FileSystem.Descriptor, expecting expected: FileSystem.FileVersion
    ) throws(Failure) -> Copied {
        let hashed = try hash(source, size: expected.size)
        let after = try classified(source) { () throws(SystemError) in try FileSystem.version(of: source) }
        guard after == expected, hashed.byteCount == expected.size else { throw .changed }
        return hashed
    }

    /// Writes `bytes` — all of `source`, read in one piece when it was opened and inspected (a
    /// small file: ``MediaReader``) — into the empty `destination`, hashing them, and starts their
    /// writeback; refuses a source that is no longer `expected` afterwards, or whose bytes were
    /// not all read (``Failure/changed``). `expected` `nil`: the reader already found the file
    /// unchanged from before it was opened until after it was read, so the bytes are one version
    /// of it and the source is not looked at again. No reflink is tried: the bytes are in memory.
    package static func copy(
        _ bytes: [UInt8], readFrom source: FileSystem.Descriptor, to destination: FileSystem.Descriptor,
        expecting expected: FileSystem.FileVersion?
    ) throws(Failure) -> Copied {
        // Written and its writeback started before it is hashed: the disk writes while it is.
        let failure = bytes.withUnsafeBytes { raw -> SystemError? in
            do throws(SystemError) { try FileSystem.write(destination, raw) } catch { return error }
            return nil
        }
        if let failure { throw .destination(failure) }
        FileSystem.startWriteback(destination, at: 0, count: UInt64(bytes.count))
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return try checked(Copied(sha256: hasher.finalize(), byteCount: UInt64(bytes.count)), source, expected)
    }

    /// The SHA-256 of `bytes` — all of `source`, read when it was opened — refusing a source that
    /// is no longer `expected` afterwards (``Failure/changed``; `nil`: checked when read, as above).
    package static func hash(
        _ bytes: [UInt8], readFrom source: FileSystem.Descriptor, expecting expected: FileSystem.FileVersion?
    ) throws(Failure) -> Copied {
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return try checked(Copied(sha256: hasher.finalize(), byteCount: UInt64(bytes.count)), source, expected)
    }

    /// `copied`, once `source` is still `expected` and every one of its bytes was copied.
    private static func checked(
        _ copied: Copied, _ source: FileSystem.Descriptor, _ expected: FileSystem.FileVersion?
    ) throws(Failure) -> Copied {
        guard let expected else { return copied }
        let after = try classified(source) { () throws(SystemError) in try FileSystem.version(of: source) }
        guard after == expected, copied.byteCount == expected.size else { throw .changed }
        return copied
    }

    private static func reflink(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor, device: UInt64
    ) throws(Failure) -> Bool {
        guard !noReflink.withLock({ $0.contains(device) }) else { return false }
        let cloned = try classified(source) { () throws(SystemError) in try FileSystem.clone(source, to: destination) }
        if !cloned { _ = noReflink.withLock { $0.insert(device) } }
        return cloned
    }

    /// The kernel copies on this thread while another thread hashes the source.
    private static func copyWhileHashing(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor, size: UInt64
    ) throws(Failure) -> Copied {
        let hashed = Locked<Result<Copied, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let hasher = Thread {
            hashed.withLock { $0 = Result { () throws(Failure) in try hash(source, size: size) } }
            done.signal()
        }
        hasher.start()
        var copyResult: Result<UInt64, Failure>
        do throws(Failure) { copyResult = .success(try kernelCopy(source, to: destination, size: size)) } catch {
            copyResult = .failure(error)
        }
        done.wait()
        // A source that cannot be read explains a failed copy better than the copy's own error.
        let hashing = hashed.withLock { $0! }
        if case .failure(let error) = hashing, case .source = error { throw error }
        let copiedBytes = try copyResult.get()
        var copied = try hashing.get()
        if copiedBytes != copied.byteCount { throw .changed }
        copied.byteCount = copiedBytes
        return copied
    }

    /// `copy_file_range` in stretches, starting writeback after each; reads and writes where the
    /// kernel cannot. Returns the count copied.
    private static func kernelCopy(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor, size: UInt64
    ) throws(Failure) -> UInt64 {
        var offset: UInt64 = 0
        while offset < size {
            let count = Int(min(UInt64(stretch), size - offset))
            let copied = try classified(source) { () throws(SystemError) in
                try FileSystem.copyRange(from: source, to: destination, at: offset, count: count)
            }
            guard let copied else { return try copyThroughUserSpace(source, to: destination, size: size) }
            if copied == 0 { break }
            FileSystem.startWriteback(destination, at: offset, count: UInt64(copied))
            offset += UInt64(copied)
        }
        return offset
    }

    /// Plain reads and writes (no hashing: another thread hashes). Returns the count copied.
    private static func copyThroughUserSpace(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor, size: UInt64
    ) throws(Failure) -> UInt64 {
        try chunks(of: source, size: size) { slice throws(Failure) in
            try classified(source) { () throws(SystemError) in try FileSystem.write(destination, slice) }
        }
    }

    /// Reads, hashes and writes each chunk in turn.
    private static func copyInOnePass(
        _ source: FileSystem.Descriptor, to destination: FileSystem.Descriptor, size: UInt64
    ) throws(Failure) -> Copied {
        var hasher = SHA256Hasher()
        let count = try chunks(of: source, size: size) { slice throws(Failure) in
            hasher.update(slice)
            try classified(source) { () throws(SystemError) in try FileSystem.write(destination, slice) }
        }
        return Copied(sha256: hasher.finalize(), byteCount: count)
    }

    /// The SHA-256 of the whole source, read in chunks.
    private static func hash(_ source: FileSystem.Descriptor, size: UInt64) throws(Failure) -> Copied {
        var hasher = SHA256Hasher()
        let count = try chunks(of: source, size: size) { slice throws(Failure) in hasher.update(slice) }
        return Copied(sha256: hasher.finalize(), byteCount: count)
    }

    /// Streams the first `size` bytes of `source` in 1 MiB chunks; returns the count read (less
    /// when the file is shorter). Growth past `size` is not read here: the version check after the
    /// copy refuses it, so no read is spent looking for the end of the file.
    private static func chunks(
        of source: FileSystem.Descriptor, size: UInt64, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) -> UInt64 {
        let buffer = takeBuffer()
        defer { giveBack(buffer) }
        var offset: UInt64 = 0
        while offset < size {
            let wanted = UnsafeMutableRawBufferPointer(
                rebasing: buffer[0..<Int(min(UInt64(buffer.count), size - offset))])
            let n = try classified(source) { () throws(SystemError) in
                try FileSystem.read(source, into: wanted, at: offset)
            }
            if n == 0 { break }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += UInt64(n)
        }
        return offset
    }

    /// Chunk buffers between copies, by address: a fresh 1 MiB allocation is mapped anew and its
    /// first touch of every page faults (about 0.1 ms of a lone photo's copy). At most one per core
    /// is kept.
    private static let spareBuffers = Locked<[UInt]>([])
    private static let bufferSize = 1 << 20

    private static func takeBuffer() -> UnsafeMutableRawBufferPointer {
        if let address = spareBuffers.withLock({ $0.popLast() }),
            let start = UnsafeMutableRawPointer(bitPattern: address)
        {
            return UnsafeMutableRawBufferPointer(start: start, count: bufferSize)
        }
        return UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    }

    private static func giveBack(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let start = buffer.baseAddress else { return }
        let kept = spareBuffers.withLock { spare in
            guard spare.count < Blocking.width else { return false }
            spare.append(UInt(bitPattern: start))
            return true
        }
        if !kept { buffer.deallocate() }
    }

    /// Runs a call, blaming the source when the error names its path and the destination otherwise.
    private static func classified<T>(
        _ source: FileSystem.Descriptor, _ call: () throws(SystemError) -> T
    ) throws(Failure) -> T {
        do { return try call() } catch { throw error.path == source.path ? .source(error) : .destination(error) }
    }
}
