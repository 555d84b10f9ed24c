import Synchronization

/// The app's screens, as an iOS app would hold its view controllers: one composer and one list,
/// reset by the app's set-up hook so that scenarios are isolated.
public enum Screens {
    private static let current = Mutex((composer: ReviewComposer(), list: RestaurantList()))

    public static var composer: ReviewComposer { current.withLock { $0.composer } }
    public static var restaurantList: RestaurantList { current.withLock { $0.list } }

    /// Fresh screens.
    public static func reset() {
        current.withLock { $0 = (ReviewComposer(), RestaurantList()) }
    }
}
