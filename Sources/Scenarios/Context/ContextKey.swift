/// A key for typed storage on a ``ScenarioContext``, so that step modules can keep their world there.
///
/// ```swift
/// enum LastResponseKey: ContextKey { typealias Value = Response }
/// context[LastResponseKey.self] = response
/// ```
@usableFromInline
package protocol ContextKey {
    associatedtype Value: Sendable
}
