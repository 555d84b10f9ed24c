import Foundation
import Scenarios

/// A report file written by appending as the run goes (`--events`, `--html`): the bytes not written yet,
/// and the first write that failed (nothing more is tried after it, and the writer's finish throws it).
struct AppendedOutput {
    var descriptor: Int32
    var pending = Data()
    var failure: FileWriteError?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Whether more may still be written.
    var isWritable: Bool { failure == nil && descriptor >= 0 }

    /// Writes what is pending to `path`'s descriptor, keeping the failure if it cannot.
    mutating func flush(path: String) {
        guard !pending.isEmpty, isWritable else { return }
        defer { pending = Data() }
        do {
            try FileWriteError.writeAll(pending, to: descriptor, path: path)
        } catch {
            failure = error
        }
    }
}
