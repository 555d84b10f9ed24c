public import Foundation
public import ObjectManager
import Synchronization

/// The review composer: posts a review through the shared object manager and shows what happened.
///
/// ```swift
/// await Screens.composer.submit(restaurantID: 12345, title: "Whatever", body: "Great", rating: 5)
/// Screens.composer.status   // .sent, .failed("Invalid object."), .offline …
/// ```
public final class ReviewComposer: Sendable {
    /// What the composer shows.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        case idle
        case sending
        case sent
        case failed(String)
        case offline

        /// `idle`, `sending`, `sent`, `failed`, `offline` — the names scenario files use.
        public var name: String {
            switch self {
            case .idle: "idle"
            case .sending: "sending"
            case .sent: "sent"
            case .failed: "failed"
            case .offline: "offline"
            }
        }

        /// The message shown under the composer.
        public var message: String? {
            switch self {
            case .idle, .sending: nil
            case .sent: "Thanks for your review!"
            case .failed(let message): message
            case .offline: "You are offline. Your review was not sent."
            }
        }

        public var description: String { message.map { "\(name): \($0)" } ?? name }
    }

    /// Posted when a review was sent and stored.
    public static let didSendReview = Notification.Name("ReviewComposerDidSendReview")

    private let state = Mutex<(status: Status, review: ManagedObject?)>((.idle, nil))

    public init() {}

    public var status: Status { state.withLock { $0.status } }

    /// The review last submitted, mapped from the server's answer when it was sent.
    public var review: ManagedObject? { state.withLock { $0.review } }

    /// Posts a new review for a restaurant. While reachability says not reachable, nothing is sent
    /// and the composer shows `offline`.
    public func submit(restaurantID: Int, title: String, body: String? = nil, rating: Int? = nil) async {
        guard let manager = ObjectManager.shared, let store = manager.store else {
            state.withLock { $0.status = .failed("The app is not configured: no object manager.") }
            return
        }
        guard manager.client.reachabilityStatus != .notReachable else {
            state.withLock { $0.status = .offline }
            return
        }
        state.withLock { $0.status = .sending }
        do {
            guard let entity = store.model.entity(named: "Review") else {
                throw ObjectManagerError.misconfigured("No Review entity.")
            }
            let review = try ManagedObject(
                entity: entity,
                attributes: [
                    "restaurantID": .integer(restaurantID), "title": .string(title),
                    "body": body.map(AttributeValue.string) ?? .null,
                    "rating": rating.map(AttributeValue.integer) ?? .null,
                ]
            )
            _ = try await manager.postObject(review)
            state.withLock { $0 = (.sent, review) }
            NotificationCenter.default.post(name: Self.didSendReview, object: self)
        } catch let error as ObjectManagerError {
            if case .offline = error {
                state.withLock { $0.status = .offline }
            } else {
                state.withLock { $0.status = .failed(error.description) }
            }
        } catch {
            state.withLock { $0.status = .failed("\(error)") }
        }
    }
}
