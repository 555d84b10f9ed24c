import Foundation

/// How a worker process ended, and the last of what it wrote to its standard error — with the sentence
/// a report gives for it: the crash message the runtime wrote, the signal, or the exit status.
///
/// ```swift
/// let exit = WorkerExit(signal: SIGABRT, status: 0, standardErrorTail: "…Fatal error: boom\n")
/// exit.describe(runningAScenario: true)   // "The process running this scenario crashed: Fatal error: boom (signal 6, SIGABRT)."
/// ```
package struct WorkerExit: Sendable, Equatable {
    package var signal: Int32?
    package var status: Int32
    package var standardErrorTail: String

    package init(signal: Int32? = nil, status: Int32 = 0, standardErrorTail: String = "") {
        self.signal = signal
        self.status = status
        self.standardErrorTail = standardErrorTail
    }

    /// A worker's exit status after it reported a scenario whose step it could not stop (it ends itself).
    static let abandonedStepStatus: Int32 = 4

    /// Whether the worker ended on its own, as a worker does at the end of its input (or after reporting
    /// a step it could not stop).
    var endedItself: Bool { signal == nil && (status == 0 || status == Self.abandonedStepStatus) }

    /// Why the worker ended, as a sentence.
    func describe(runningAScenario: Bool) -> String {
        let subject = runningAScenario ? "The process running this scenario" : "It"
        let message = Self.crashMessage(in: standardErrorTail)
        if let signal {
            let name = Self.signalName(signal)
            if let message { return "\(subject) crashed: \(message) (signal \(signal), \(name))." }
            return "\(subject) was ended by signal \(signal) (\(name))."
        }
        if let message { return "\(subject) exited with status \(status): \(message)" }
        return "\(subject) exited with status \(status)" + (runningAScenario ? " before the scenario finished." : ".")
    }

    /// The runtime's last report of a fatal error in `text` (`Fatal error: …`, `Precondition failed: …`).
    static func crashMessage(in text: String) -> String? {
        let markers = ["Fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil"]
        for line in text.split(separator: "\n").reversed() {
            guard let marker = markers.compactMap({ line.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound })
            else {
                continue
            }
            return String(line[marker.lowerBound...]).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[number] ?? "signal \(number)"
    }
}
