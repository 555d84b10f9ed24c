/// Why the stub server refused a request it had begun to read, rendered to text in one place.
enum RequestRefusal: Equatable {
    /// The body is longer than the limit: declared by `Content-Length` (`length`), or found while reading.
    case bodyTooLarge(length: Int?, limit: Int)

    /// The `error` text of the JSON answer.
    var message: String {
        switch self {
        case .bodyTooLarge(let length?, let limit):
            return "The request body of \(length) bytes is over the limit of \(limit) bytes."
        case .bodyTooLarge(nil, let limit):
            return "The request body is over the limit of \(limit) bytes."
        }
    }
}
