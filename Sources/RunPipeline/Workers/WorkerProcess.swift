package import Foundation
import Synchronization

/// One worker process as ``WorkerPool`` drives it — `scenario-run worker` spawned, or this process forked
/// as it started (``fork()``) — with its channel (a socket that is its standard input until it takes it
/// over) and its standard error; the run's line written
/// first; the channel's lines read and framed on a thread of their own; its end reported once, after
/// everything it wrote was read. Nothing here decides anything: ``WorkerPoolMachine`` does.
///
/// ```swift
/// let worker = try WorkerProcess(arguments: [WorkerMain.command], runLine: line, forwardOutput: true,
///     onLines: { messages in … }, onExit: { exit in … })
/// worker.write(Data("#3 9f2c…\n0\n1\n".utf8)); worker.closeInput()
/// ```
package final class WorkerProcess: Sendable {
    /// How much of a worker's standard error is kept to explain its end.
    static let standardErrorTailBytes = 8192

    private let process: Child
    /// The pool's end of the channel for writing (a descriptor of its own, shut down and closed once the
    /// worker gets nothing more; the reader keeps the channel open until the worker ends).
    private let input: Mutex<FileHandle?>

    /// Why a worker could not start, in words (the open-file limit named when that may be why).
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A worker process started, its channel and standard error open, nothing written to it or read from
    /// it yet: waiting for its run (``WorkerLaunchpad`` starts one before the command line is parsed).
    struct Started: @unchecked Sendable {
        // @unchecked: handed from the thread that starts it to the one that adopts it, used by one at a time.
        fileprivate let process: Child
        fileprivate let channel: SocketChannel
        fileprivate let errors: FileHandle

        /// Tells the worker there is no run for it (nobody adopted it, or its run could not be encoded): it
        /// reads the end of its input and ends, saying so on its standard error.
        func dismiss() {
            shutdown(channel.writing.fileDescriptor, Int32(SHUT_WR))
        }
    }

    /// A worker's process: `scenario-run worker` spawned, or this process forked as it started.
    fileprivate enum Child: @unchecked Sendable {
        // @unchecked: Foundation's Process is used as its documentation allows, from any thread.
        case spawned(Process)
        case forked(ForkedProcess)

        var pid: pid_t {
            switch self {
            case .spawned(let process): process.processIdentifier
            case .forked(let process): process.pid
            }
        }

        /// Waits until it ends: its status, or the signal that ended it.
        func waitUntilExit() -> (signal: Int32?, status: Int32) {
            switch self {
            case .spawned(let process):
                process.waitUntilExit()
                let bySignal = process.terminationReason == .uncaughtSignal
                return (bySignal ? process.terminationStatus : nil, bySignal ? 0 : process.terminationStatus)
            case .forked(let process):
                return process.waitUntilExit()
            }
        }

        /// Sends `signal` while it runs.
        func signal(_ signal: Int32) {
            switch self {
            case .spawned(let process): if process.isRunning { kill(process.processIdentifier, signal) }
            case .forked(let process): process.signal(signal)
            }
        }
    }

    /// Forks this process, which has one thread (``ForkedProcess/hasOneThread``), into a worker waiting for
    /// its run, as ``start(arguments:executable:)`` starts one. Returns the worker in this process, and
    /// `nil` in the worker, which goes on as one (``WorkerMain/run(app:)``).
    static func fork() throws(StartFailure) -> Started? {
        let channel: (reading: Int32, writing: Int32, workers: Int32)
        let errors: (reading: Int32, writing: Int32)
        do {
            channel = try SocketChannel.descriptors()
            errors = try Channel.descriptors()
        } catch {
            throw StartFailure(description: error.description)
        }
        let parents = [channel.reading, channel.writing, errors.reading]
        switch ForkedProcess.fork(input: channel.workers, errors: errors.writing, closing: parents) {
        case .child:
            return nil
        case .parent(let process):
            ChildProcesses.add(process.pid)
            close(channel.workers)
            close(errors.writing)
            return Started(
                process: .forked(process),
                channel: SocketChannel(reading: channel.reading, writing: channel.writing, workers: nil),
                errors: FileHandle(fileDescriptor: errors.reading, closeOnDealloc: true)
            )
        case nil:
            let reason = String(cString: strerror(errno)) + OpenFiles.limitNote
            for descriptor in [channel.reading, channel.writing, channel.workers, errors.reading, errors.writing] {
                close(descriptor)
            }
            throw StartFailure(description: reason)
        }
    }

    /// Starts `scenario-run worker` (this executable, with `arguments`; another one in tests): its channel
    /// (a socket that is its standard input until it takes it over) and its standard error are the only
    /// descriptors it gets.
    static func start(
        arguments: [String],
        executable: URL = URL(fileURLWithPath: "/proc/self/exe")
    ) throws(StartFailure) -> Started {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported from its message; the runtime's backtrace would take seconds per crash.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        process.environment = environment
        // Foundation's Pipe() crashes when pipe(2) fails (at a low `ulimit -n`); these fail in words.
        // The channel is the worker's standard input until the worker takes it over; its standard output
        // is the app's, which the worker puts in the scenario's log.
        let channel: SocketChannel
        let errors: Channel
        do {
            channel = try SocketChannel()
            errors = try Channel()
        } catch {
            throw StartFailure(description: error.description)
        }
        process.standardInput = channel.workers
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors.writing
        do {
            try process.run()
        } catch {
            for handle in [channel.reading, channel.writing, channel.workers, errors.reading, errors.writing] {
                try? handle?.close()
            }
            var reason = "\(error)"
            if let posix = (error as NSError?).flatMap({ $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }) {
                reason = String(cString: strerror(posix)) + OpenFiles.limitNote
            }
            throw StartFailure(description: reason)
        }
        ChildProcesses.add(process.processIdentifier)
        try? channel.workers?.close()
        try? errors.writing.close()
        return Started(process: .spawned(process), channel: channel, errors: errors.reading)
    }

    /// Starts the process. `onLines` gets each batch of whole lines it writes on its channel (a line that
    /// is no message is dropped); `onExit` is called once, after the last of them, when it has ended.
    convenience init(
        arguments: [String],
        runLine: Data?,
        forwardOutput: Bool,
        onLines: @escaping @Sendable ([RunEventLines.Message]) -> Void,
        onExit: @escaping @Sendable (WorkerExit) -> Void
    ) throws(StartFailure) {
        self.init(
            try Self.start(arguments: arguments),
            runLine: runLine,
            forwardOutput: forwardOutput,
            onLines: onLines,
            onExit: onExit
        )
    }

    /// Drives a started worker: sends it its run and reads what it writes, as ``init(arguments:runLine:forwardOutput:onLines:onExit:)``.
    init(
        _ started: Started,
        runLine: Data?,
        forwardOutput: Bool,
        onLines: @escaping @Sendable ([RunEventLines.Message]) -> Void,
        onExit: @escaping @Sendable (WorkerExit) -> Void
    ) {
        let process = started.process
        let channel = started.channel
        let errors = started.errors
        // The run comes first on the channel: the worker reads it before it loads anything.
        // Without one (it could not be encoded) the worker reads the end of its input and stops, saying so.
        if let runLine {
            try? channel.writing.write(contentsOf: runLine)
        } else {
            started.dismiss()
        }
        self.process = process
        self.input = Mutex(channel.writing)
        let tail = StandardErrorTail(limit: Self.standardErrorTailBytes)
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            tail.read(errors, forwarding: forwardOutput)
            errorsRead.signal()
        }.start()
        Thread {
            if let status = Self.readLines(channel.reading, onLines) {
                // Its end, announced (`["end",STATUS]`): nothing runs in it any more, and it has closed its
                // standard error, whose every line is read once that pipe ends. Reported now, not after
                // the kernel has taken the process down (milliseconds); reaped meanwhile.
                errorsRead.wait()
                onExit(WorkerExit(status: status, standardErrorTail: tail.text))
                _ = process.waitUntilExit()
                ChildProcesses.remove(process.pid)
                return
            }
            let (signal, status) = process.waitUntilExit()
            errorsRead.wait()
            ChildProcesses.remove(process.pid)
            onExit(WorkerExit(signal: signal, status: status, standardErrorTail: tail.text))
        }.start()
    }

    /// Writes to the worker's channel; a worker that is gone is reported by its end, not here.
    func write(_ text: String) {
        input.withLock { input in
            try? input?.write(contentsOf: Data(text.utf8))
        }
    }

    /// Tells the worker it gets nothing more (its channel's end of input) and closes the pool's writing end.
    func closeInput() {
        input.withLock { input in
            guard let handle = input else { return }
            shutdown(handle.fileDescriptor, Int32(SHUT_WR))
            try? handle.close()
            input = nil
        }
    }

    /// Sends `signal` to the process while it runs.
    func signal(_ signal: Int32) {
        process.signal(signal)
    }

    /// Reads the worker's JSON lines (run events, the app's output between scenarios) until the worker
    /// ends; a line that is neither is dropped.
    ///
    /// Linear in what the worker writes: a chunk without a line break is only appended (a long line —
    /// a 4 MB failure reason — arrives in many chunks, and scanning and copying the unfinished line at
    /// every chunk was quadratic); the bytes left after the last line break are the tail of one chunk.
    ///
    /// - Returns: the status of the worker's `["end",STATUS]` line, where reading stops; `nil` when the
    ///   channel ended without one.
    private static func readLines(_ handle: FileHandle, _ onLines: ([RunEventLines.Message]) -> Void) -> Int32? {
        var buffer = Data()
        while true {
            let chunk = nextChunk(of: handle)
            if chunk.isEmpty { return nil }
            // Only the new chunk is scanned; its offsets are shifted past the unfinished line before it.
            let newlines = newlineOffsets(in: chunk).map { $0 + buffer.count }
            buffer.append(chunk)
            guard !newlines.isEmpty else { continue }
            let (lines, consumed) = messages(in: buffer, newlines: newlines)
            buffer = Data(buffer[(buffer.startIndex + consumed)...])
            for (index, line) in lines.enumerated() {
                guard case .end(let status) = line else { continue }
                if index > 0 { onLines(Array(lines[..<index])) }
                return status
            }
            if !lines.isEmpty { onLines(lines) }
        }
    }

    /// The messages of the whole lines in `data` (ending at `newlines`, offsets found with
    /// ``newlineOffsets(in:)``), and how many bytes they took; a line that is no message is dropped.
    static func messages(in data: Data, newlines: [Int]? = nil) -> (messages: [RunEventLines.Message], consumed: Int) {
        var messages: [RunEventLines.Message] = []
        var consumed = 0
        for newline in newlines ?? newlineOffsets(in: data) {
            let line = data[(data.startIndex + consumed)..<(data.startIndex + newline)]
            if let message = RunEventLines.decodeMessage(line) { messages.append(message) }
            consumed = newline + 1
        }
        return (messages, consumed)
    }

    /// What `handle` has to read, waiting for it; empty at its end — and when reading fails, as it does
    /// on a channel whose worker ended without reading all it was sent (`ECONNRESET`, on which
    /// `FileHandle.availableData` traps).
    static func nextChunk(of handle: FileHandle) -> Data {
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 1) { buffer in
            while true {
                let count = Glibc.read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
                if count < 0, errno == EINTR { continue }
                return count > 0 ? Data(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) : Data()
            }
        }
    }

    /// The offsets of the line breaks in `data`, found with `memchr`: a byte-by-byte iteration of `Data`
    /// checked its exclusive access at every byte, a third of a 4 MB line's reading.
    package static func newlineOffsets(in data: Data) -> [Int] {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [Int] in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] }
            var offsets: [Int] = []
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
                let index = base.distance(to: UnsafeRawPointer(found))
                offsets.append(index)
                offset = index + 1
            }
            return offsets
        }
    }
}

/// A worker's standard error: passed on as it comes (unless the live runner owns the terminal), the
/// last few kilobytes kept to explain a crash.
private final class StandardErrorTail: Sendable {
    private let kept = Mutex(Data())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func read(_ handle: FileHandle, forwarding: Bool) {
        while true {
            let chunk = WorkerProcess.nextChunk(of: handle)
            if chunk.isEmpty { return }
            if forwarding { Terminal.write(chunk, to: .standardError) }
            kept.withLock { kept in
                kept.append(chunk)
                if kept.count > limit { kept = Data(kept.suffix(limit)) }
            }
        }
    }

    var text: String { String(decoding: kept.withLock { $0 }, as: UTF8.self) }
}

/// A pipe whose creation fails with an error rather than a crash (Foundation's `Pipe()` traps when
/// pipe(2) fails); both ends close on exec and when their handle is released.
private struct Channel {
    let reading: FileHandle
    let writing: FileHandle

    /// Why a pipe could not be made, with the open-file limit when that is what ran out.
    struct Failure: Error, CustomStringConvertible {
        var description: String

        /// The failure of the last system call, in words.
        static func last(_ what: String) -> Failure {
            Failure(description: "\(what): \(String(cString: strerror(errno)))\(OpenFiles.limitNote)")
        }
    }

    init() throws(Failure) {
        let ends = try Self.descriptors()
        reading = FileHandle(fileDescriptor: ends.reading, closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends.writing, closeOnDealloc: true)
    }

    /// A pipe's two descriptors, both closing on exec.
    static func descriptors() throws(Failure) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .last("no pipe to it") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

/// A worker's channel: a socket pair, the pool's end read and written through descriptors of their own
/// (so the writing one can be closed while the reader goes on), the worker's end its standard input.
/// Every descriptor closes on exec and when its handle is released.
fileprivate struct SocketChannel {
    let reading: FileHandle
    let writing: FileHandle
    /// The worker's end, until it is started; `nil` in a forked worker's, which never had one.
    let workers: FileHandle?

    init() throws(Channel.Failure) {
        let ends = try Self.descriptors()
        self.init(reading: ends.reading, writing: ends.writing, workers: ends.workers)
    }

    init(reading: Int32, writing: Int32, workers: Int32?) {
        self.reading = FileHandle(fileDescriptor: reading, closeOnDealloc: true)
        self.writing = FileHandle(fileDescriptor: writing, closeOnDealloc: true)
        self.workers = workers.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// The socket pair's descriptors: the pool's end twice (reading, and writing), the worker's end.
    static func descriptors() throws(Channel.Failure) -> (reading: Int32, writing: Int32, workers: Int32) {
        var ends: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw .last("no channel to it") }
        let duplicate = fcntl(ends[0], F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            let failure = Channel.Failure.last("no channel to it")
            for end in ends { close(end) }
            throw failure
        }
        return (ends[0], duplicate, ends[1])
    }
}
