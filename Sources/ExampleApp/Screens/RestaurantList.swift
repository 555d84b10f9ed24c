import Foundation
import ObjectManager
import Synchronization

/// The restaurant list: loads `/restaurants` through the named route; while offline it shows what
/// the response cache holds, under the banner "Offline".
public final class RestaurantList: Sendable {
    public struct Row: Sendable, Hashable {
        public var restaurantID: Int
        public var name: String
    }

    private let state = Mutex<(rows: [Row], banner: String?, error: String?, loaded: Bool)>(([], nil, nil, false))

    public init() {}

    public var rows: [Row] { state.withLock { $0.rows } }
    /// "Offline" when the list came from the cache because the network is not reachable.
    public var banner: String? { state.withLock { $0.banner } }
    public var errorMessage: String? { state.withLock { $0.error } }
    public var isLoaded: Bool { state.withLock { $0.loaded } }

    public func load() async {
        guard let manager = ObjectManager.shared else {
            state.withLock { $0 = ([], nil, "The app is not configured: no object manager.", true) }
            return
        }
        let offline = manager.client.reachabilityStatus == .notReachable
        do {
            let result = try await manager.getObjects(forRouteNamed: "restaurants")
            let rows = result.objects.compactMap { object -> Row? in
                guard case .integer(let id) = object["restaurantID"] else { return nil }
                return Row(restaurantID: id, name: object["name"].stringValue ?? "")
            }
            let banner: String? = offline && result.response.isFromCache ? "Offline" : nil
            state.withLock { $0 = (rows, banner, nil, true) }
        } catch {
            state.withLock { $0 = ([], offline ? "Offline" : nil, error.description, true) }
        }
    }
}
