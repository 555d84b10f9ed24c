#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes every byte to a file descriptor, straight to `write(2)`: a short write continued, an
/// interrupted one retried, a descriptor that would block waited on (`poll`). Returns 0 once every byte
/// is written, else the `errno` it failed with (`EPIPE`: the reader went away; `EIO` for a write that
/// wrote nothing). What every file, report and output line of a run is written with.
package func writeEveryByte(of bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var rest = bytes
    while let start = rest.baseAddress, !rest.isEmpty {
        let written = write(descriptor, start, rest.count)
        if written > 0 {
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            continue
        }
        if written == 0 { return EIO }
        switch errno {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, -1)
        case let failure:
            return failure
        }
    }
    return 0
}
