public import Foundation

/// Network reachability of the base URL's host, as RKReachabilityObserver reported it.
public enum ReachabilityStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Not known: the status before monitoring (or a stub) first sets it.
    case unknown
    /// The host does not resolve, or no interface that can reach it is up.
    case notReachable = "not reachable"
    /// Reachable through a wireless WAN (cellular) interface only.
    case reachableViaWWAN = "reachable via wwan"
    /// Reachable through another interface (Wi-Fi, Ethernet, or loopback for a local host).
    case reachableViaWiFi = "reachable via wifi"

    /// Parses the step vocabulary (`not reachable`, `reachable via wifi`, …), case-insensitively.
    public init?(name: String) {
        let normalized = name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        self.init(rawValue: normalized)
    }

    /// Whether the host is reachable, through either kind of interface.
    public var isReachable: Bool {
        self == .reachableViaWWAN || self == .reachableViaWiFi
    }

    public var description: String { rawValue }
}

extension Notification.Name {
    /// Posted by an `HTTPClient` when its reachability status changes; `userInfo[ReachabilityStatus.userInfoKey]`
    /// holds the new `ReachabilityStatus`, `object` is the client.
    public static let reachabilityDidChange = Notification.Name("ObjectManagerReachabilityDidChangeNotification")
}

extension ReachabilityStatus {
    /// The `userInfo` key of the reachability-changed notification.
    public static let userInfoKey = "status"
}
