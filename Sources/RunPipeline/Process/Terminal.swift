package import Foundation
import SharedValues

/// This process's standard streams as the runner writes them: errors in words, and output that a
/// reader that went away (`| head`) cannot turn into a trap.
package enum Terminal {
    package static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Colours only on a terminal and never with `NO_COLOR` (any value, per no-color.org).
    package static func colors(environment: [String: String]) -> Bool {
        stdoutIsTTY && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    package static func printError(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardError)
    }

    /// Writes `data`, and says whether it could: a reader that went away (`| head`) is an error to
    /// handle (SIGPIPE is ignored: `ScenarioRun.main`), never a trap.
    @discardableResult
    package static func write(_ data: Data, to handle: FileHandle) -> Bool {
        data.withUnsafeBytes { write($0, to: handle.fileDescriptor) }
    }

    /// Writes `bytes`, as data is written above.
    @discardableResult
    package static func write(_ bytes: [UInt8], to handle: FileHandle) -> Bool {
        bytes.withUnsafeBytes { write($0, to: handle.fileDescriptor) }
    }

    /// Writes `text` as UTF-8, as data is written above.
    @discardableResult
    package static func write(_ text: String, to handle: FileHandle) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: handle.fileDescriptor) }
    }

    /// Writes every byte to the descriptor (``writeEveryByte(of:to:)``: a line a scenario; `FileHandle`'s
    /// generic writing of a `Data` made of each cost more than the system call). `false` once it fails (a
    /// reader that went away: `EPIPE`).
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        writeEveryByte(of: bytes, to: descriptor) == 0
    }
}
