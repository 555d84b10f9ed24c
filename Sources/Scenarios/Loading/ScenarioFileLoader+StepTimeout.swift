import Diagnostics
import YAMLSource

/// A step's own `timeout:`, written beside its name:
///
/// ```yaml
/// - expect outbox: { sent: 1 }
///   timeout: 30
/// ```
extension ScenarioFileLoader {
    /// The step's node without its `timeout:` key, and the timeout (`nil` when there is none, or it is
    /// not a number of seconds greater than 0 and at most a day: then reported).
    mutating func splitTimeout(_ node: YAMLNode) -> (node: YAMLNode, timeout: Duration?) {
        guard case .mapping(var pairs) = node.content, pairs.count > 1,
            let index = pairs.firstIndex(where: { $0.key.string == "timeout" })
        else { return (node, nil) }
        let value = pairs.remove(at: index).value
        let step = YAMLNode(content: .mapping(pairs), line: node.line, column: node.column)
        guard let text = value.string, !value.isNull, let seconds = Double(text), seconds > 0,
            let duration = Duration(checkedSeconds: seconds)
        else {
            report(.invalidStepTimeout(value.string ?? value.summary), at: location(of: value))
            return (step, nil)
        }
        return (step, duration)
    }
}
