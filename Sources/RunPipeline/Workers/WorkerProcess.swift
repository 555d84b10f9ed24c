import Diagnostics
package import Foundation
import SharedValues
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
        /// The pool's end of the channel, read and written through descriptors of their own (so the
        /// writing one can be closed while the reader goes on).
        fileprivate let reading: FileHandle
        fileprivate let writing: FileHandle
        fileprivate let errors: FileHandle

        /// Tells the worker there is no run for it (nobody adopted it, or its run could not be encoded): it
        /// reads the end of its input and ends, saying so on its standard error.
        func dismiss() {
            shutdown(writing.fileDescriptor, Int32(SHUT_WR))
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
    /// its run, as ``start(arguments:executable:)`` starts one. The worker closes this process's ends of
    /// its own channel and of the channels of `others` (workers forked before it), and forgets their
    /// processes: it is none of theirs. Returns the worker in this process, and `nil` in the worker, which
    /// goes on as one (``WorkerMain/run(app:)``).
    static func fork(closing others: [Started] = []) throws(StartFailure) -> Started? {
        let ends = try WorkerEnds()
        let parents = [ends.reading, ends.writing, ends.errorsReading]
        switch ForkedProcess.fork(input: ends.workers, errors: ends.errorsWriting, closing: parents) {
        case .child:
            for other in others {
                for handle in [other.reading, other.writing, other.errors] { try? handle.close() }
            }
            ChildProcesses.forgetAll()
            return nil
        case .parent(let process):
            return ends.started(.forked(process))
        case nil:
            let reason = String(cString: strerror(errno)) + OpenFiles.limitNote
            ends.closeAll()
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
        // The channel is the worker's standard input until the worker takes it over; its standard output
        // is the app's, which the worker puts in the scenario's log.
        let ends = try WorkerEnds()
        process.standardInput = FileHandle(fileDescriptor: ends.workers, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: ends.errorsWriting, closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            ends.closeAll()
            var reason = "\(error)"
            if let posix = (error as NSError?).flatMap({ $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }) {
                reason = String(cString: strerror(posix)) + OpenFiles.limitNote
            }
            throw StartFailure(description: reason)
        }
        return ends.started(.spawned(process))
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
        let errors = started.errors
        // The run comes first on the channel: the worker reads it before it loads anything.
        // Without one (it could not be encoded) the worker reads the end of its input and stops, saying so.
        if let runLine {
            try? started.writing.write(contentsOf: runLine)
        } else {
            started.dismiss()
        }
        self.process = process
        self.input = Mutex(started.writing)
        let tail = StandardErrorTail(limit: Self.standardErrorTailBytes)
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            tail.read(errors, forwarding: forwardOutput)
            errorsRead.signal()
        }.start()
        Thread {
            if let status = Self.readLines(started.reading, onLines) {
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
        var decoder = RunEventLines.Decoder()
        while true {
            let chunk = nextChunk(of: handle)
            if chunk.isEmpty { return nil }
            // Only the new chunk is scanned; its offsets are shifted past the unfinished line before it.
            let newlines = newlineOffsets(in: chunk).map { $0 + buffer.count }
            buffer.append(chunk)
            guard !newlines.isEmpty else { continue }
            let (lines, consumed) = messages(in: buffer, newlines: newlines, decoder: &decoder)
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
        var decoder = RunEventLines.Decoder()
        return messages(in: data, newlines: newlines, decoder: &decoder)
    }

    /// ``messages(in:newlines:)`` read by `decoder`, which goes on reading the same worker's lines.
    static func messages(in data: Data, newlines: [Int]?, decoder: inout RunEventLines.Decoder) -> (
        messages: [RunEventLines.Message], consumed: Int
    ) {
        var messages: [RunEventLines.Message] = []
        var consumed = 0
        for newline in newlines ?? newlineOffsets(in: data) {
            let line = data[(data.startIndex + consumed)..<(data.startIndex + newline)]
            if let message = decoder.decodeMessage(line) { messages.append(message) }
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

    /// The offsets of the line breaks in `data` (``lineFeedOffsets``): a byte-by-byte iteration of `Data`
    /// checked its exclusive access at every byte, a third of a 4 MB line's reading.
    package static func newlineOffsets(in data: Data) -> [Int] {
        data.withUnsafeBytes(\.lineFeedOffsets)
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

/// The descriptors a worker starts with, made before it whichever way it starts (spawned or forked): its
/// channel, a socket pair — the pool's end twice, read and written through descriptors of their own (so
/// the writing one can be closed while the reader goes on), and the worker's end, its standard input —
/// and the pipe that is its standard error. Each closes on exec. They fail in words where Foundation's
/// `Pipe()` would trap (pipe(2) failing at a low `ulimit -n`).
private struct WorkerEnds {
    let reading: Int32
    let writing: Int32
    let workers: Int32
    let errorsReading: Int32
    let errorsWriting: Int32

    init() throws(WorkerProcess.StartFailure) {
        var pair: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw Self.failure("no channel to it") }
        let duplicate = fcntl(pair[0], F_DUPFD_CLOEXEC, 0)
        var pipeEnds: [Int32] = [0, 0]
        guard duplicate >= 0, pipe(&pipeEnds) == 0 else {
            let failure = Self.failure(duplicate >= 0 ? "no pipe to it" : "no channel to it")
            for end in pair + (duplicate >= 0 ? [duplicate] : []) { close(end) }
            throw failure
        }
        (reading, writing, workers) = (pair[0], duplicate, pair[1])
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (errorsReading, errorsWriting) = (pipeEnds[0], pipeEnds[1])
    }

    /// The failure of the last system call, in words, with the open-file limit.
    private static func failure(_ what: String) -> WorkerProcess.StartFailure {
        WorkerProcess.StartFailure(description: "\(what): \(String(cString: strerror(errno)))\(OpenFiles.limitNote)")
    }

    /// The worker `process` started with them: its ends are closed here (it has its own), the pool's are
    /// the started worker's, closed when their handles are released.
    func started(_ process: WorkerProcess.Child) -> WorkerProcess.Started {
        ChildProcesses.add(process.pid)
        close(workers)
        close(errorsWriting)
        return WorkerProcess.Started(
            process: process,
            reading: FileHandle(fileDescriptor: reading, closeOnDealloc: true),
            writing: FileHandle(fileDescriptor: writing, closeOnDealloc: true),
            errors: FileHandle(fileDescriptor: errorsReading, closeOnDealloc: true)
        )
    }

    /// Closes every one of them: no worker started.
    func closeAll() {
        for descriptor in [reading, writing, workers, errorsReading, errorsWriting] { close(descriptor) }
    }
}
