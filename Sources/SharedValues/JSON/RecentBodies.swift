package import Foundation
import Synchronization

extension JSONValue {
    /// Parses a response body, taking the value from the last few bodies parsed this way when `data` is
    /// one of them byte for byte.
    ///
    /// A stub server answers from fixture files, so a suite receives the same bytes again and again: every
    /// scenario that fetches a list gets the one file's contents. Parsing is a function of the bytes and a
    /// `JSONValue` is a value, so the value parsed before is the value; a body that differs in any byte,
    /// or is longer than ``RecentBodies/bodyLimit``, is parsed. Costs a length comparison per body held
    /// when nothing matches (`Data`'s equality compares lengths first), and a byte comparison when the
    /// length does (DECISIONS 199).
    ///
    /// ```swift
    /// let json = try JSONValue(parsingBody: response.body)
    /// ```
    package init(parsingBody data: Data) throws(JSONParseError) {
        self = try RecentBodies.shared.value(of: data).get()
    }
}

/// The last bodies parsed by ``JSONValue/init(parsingBody:)``, with what parsing them gave: at most
/// ``capacity`` of them, each at most ``bodyLimit`` bytes, the oldest replaced first.
package final class RecentBodies: Sendable {
    /// The most bodies held.
    package static let capacity = 8
    /// The longest body held, in bytes: a longer one is parsed every time.
    package static let bodyLimit = 64 * 1024

    package static let shared = RecentBodies()

    private struct Held {
        var body: Data
        var result: Result<JSONValue, JSONParseError>
    }

    private struct Slots {
        var held: [Held] = []
        /// The slot the next new body replaces once all are taken.
        var next = 0
    }

    private let slots = Mutex(Slots())

    package init() {}

    /// What parsing `data` gives: as parsed before when it was, else parsed now and held (when short enough).
    package func value(of data: Data) -> Result<JSONValue, JSONParseError> {
        guard data.count <= Self.bodyLimit else { return Self.parse(data) }
        let found = slots.withLock { slots in
            slots.held.first { $0.body == data }?.result
        }
        if let found { return found }
        let result = Self.parse(data)
        slots.withLock { slots in
            let held = Held(body: data, result: result)
            if slots.held.count < Self.capacity {
                slots.held.append(held)
            } else {
                slots.held[slots.next] = held
                slots.next = (slots.next + 1) % Self.capacity
            }
        }
        return result
    }

    /// How many bodies are held (for tests).
    package var count: Int { slots.withLock { $0.held.count } }

    private static func parse(_ data: Data) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) -> JSONValue in try JSONValue(parsing: data) }
    }
}
