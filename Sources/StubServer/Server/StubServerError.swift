/// Why the stub server could not start, rendered to text in one place.
public enum StubServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Binding or listening failed.
    case cannotListen(port: Int, reason: String)
    /// `start()` was called while another `start()` had not finished.
    case alreadyStarting
    /// `stop()` was called before the server was listening.
    case stoppedBeforeListening

    public var description: String {
        switch self {
        case .cannotListen(let port, let reason):
            return "Cannot listen on 127.0.0.1:\(port): \(reason)."
        case .alreadyStarting:
            return "The stub server is already starting."
        case .stoppedBeforeListening:
            return "The stub server was stopped before it was listening."
        }
    }
}
