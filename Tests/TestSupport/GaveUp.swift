/// How long a failed expectation says it waited: the seconds of "(gave up after 0.504 s, before the
/// 5.0 s timeout: …)" — nil when the reason does not say it gave up early.
///
/// Tests compare this with the timeout the reason names, never with a wall-clock guess: how long the
/// quiet takes to be seen depends on the machine's load, that it ends before the timeout does not.
public func gaveUpEarly(_ reason: String) -> (waited: Double, timeout: Double)? {
    guard let start = reason.range(of: "(gave up after ")?.upperBound,
        let end = reason[start...].range(of: " s, before the ")
    else { return nil }
    let rest = reason[end.upperBound...]
    guard let timeoutEnd = rest.range(of: " s timeout"),
        let waited = Double(reason[start..<end.lowerBound]),
        let timeout = Double(rest[..<timeoutEnd.lowerBound])
    else { return nil }
    return (waited, timeout)
}
