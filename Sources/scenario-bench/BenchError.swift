/// A benchmark whose work did not do what it should (a wrong count or status).
enum BenchError: Error, CustomStringConvertible {
    case failed(String)

    var description: String {
        switch self {
        case .failed(let message): "Benchmark check failed: \(message)"
        }
    }
}
