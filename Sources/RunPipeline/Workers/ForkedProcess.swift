import Foundation
import Synchronization

/// A worker forked from this process as it starts, while it still has its one thread: the child is this
/// program with nothing run yet, so it goes on as a worker at once instead of loading the executable
/// again (about 15 ms of the dynamic loader and the runtime's first lookups, on the critical path of a
/// short run). Only a process with one thread forks: a fork copies no other thread, and a lock one of
/// them held would stay taken in the child for ever. ``WorkerLaunchpad`` forks; ``WorkerProcess`` drives
/// the result as it drives a spawned worker.
///
/// ```swift
/// switch ForkedProcess.fork(input: workersEnd, errors: errorsWriting, closing: parentsEnds) {
/// case .parent(let child): …        // its pid, its end waited for once
/// case .child: …                    // this process is the worker now
/// case nil: …                       // no fork: errno says why
/// }
/// ```
final class ForkedProcess: Sendable {
    let pid: pid_t
    /// Whether the process was reaped: no signal is sent after that (its pid may be another's by then).
    private let reaped = Mutex(false)

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// The two sides of a fork.
    enum Side {
        case parent(ForkedProcess)
        case child
    }

    /// The signals the Swift runtime's backtracer catches: in the child they go back to their default
    /// action unless `SWIFT_BACKTRACE` asks for backtraces, as a spawned worker is started with
    /// `SWIFT_BACKTRACE=enable=no` (a crash is reported from its message; a backtrace takes seconds).
    private static let crashSignals = [SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP]

    /// Whether this process has one thread (the 20th field of `/proc/self/stat`); `false` when that
    /// cannot be read.
    static var hasOneThread: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // Fields from the third (the state) on follow the command's name, which may hold spaces.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 17 && fields[17] == "1"
    }

    /// Forks this process, which must have one thread (``hasOneThread``). In the child, `input` becomes
    /// its standard input, `/dev/null` its standard output and `errors` its standard error; those and
    /// `closing` (the parent's ends of them) are closed, and the crash signals take their default action
    /// (unless `SWIFT_BACKTRACE` is set). Every other descriptor stays open: what the app opened before
    /// `ScenarioRun.main` (a log file a global holds) is the worker's as much as the runner's. The parent
    /// gets the child's process; `nil` when the fork failed (`errno` says why).
    static func fork(input: Int32, errors: Int32, closing: [Int32]) -> Side? {
        // Nothing buffered is written twice.
        fflush(nil)
        let pid = Glibc.fork()
        guard pid == 0 else { return pid > 0 ? .parent(ForkedProcess(pid: pid)) : nil }
        let empty = open("/dev/null", O_RDWR)
        dup2(input, STDIN_FILENO)
        dup2(empty, STDOUT_FILENO)
        dup2(errors, STDERR_FILENO)
        for descriptor in [empty, input, errors] + closing where descriptor > STDERR_FILENO { close(descriptor) }
        if getenv("SWIFT_BACKTRACE") == nil {
            for number in crashSignals { Glibc.signal(number, SIG_DFL) }
        }
        return .child
    }

    /// Waits until the process ends and reaps it: its status, or the signal that ended it.
    func waitUntilExit() -> (signal: Int32?, status: Int32) {
        // Waited for without reaping first, so that ``signal(_:)`` never reaches a pid reused meanwhile.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        return reaped.withLock { reaped in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            reaped = true
            let signal = status & 0x7f
            return signal == 0 ? (nil, (status >> 8) & 0xff) : (signal, 0)
        }
    }

    /// Sends `signal` to the process until it is reaped.
    func signal(_ signal: Int32) {
        reaped.withLock { reaped in
            if !reaped { kill(pid, signal) }
        }
    }
}
