#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers "how is this host reachable right now?" — the seam under reachability monitoring.
public protocol ReachabilityProbe: Sendable {
    /// The status of `host` now.
    func status(ofHost host: String) async -> ReachabilityStatus
}

/// A probe that always answers the same status, for unit tests.
public struct FixedReachabilityProbe: ReachabilityProbe {
    /// The status every host has.
    public var status: ReachabilityStatus
    /// Makes a probe that answers `status` for every host.
    public init(_ status: ReachabilityStatus) { self.status = status }
    public func status(ofHost host: String) async -> ReachabilityStatus { status }
}

/// The live probe: the host must resolve, and an interface that can carry traffic to it must be up.
/// Loopback hosts are reachable through the loopback interface; other hosts need an up, running,
/// non-loopback interface — a wireless WAN one (`ww*`) counts as WWAN, any other (Wi-Fi, Ethernet) as
/// Wi-Fi, the closest Linux has to iOS's two kinds.
public struct InterfaceReachabilityProbe: ReachabilityProbe {
    /// Makes the live probe.
    public init() {}

    public func status(ofHost host: String) async -> ReachabilityStatus {
        guard let addresses = Self.resolve(host), !addresses.isEmpty else { return .notReachable }
        let interfaces = Self.upInterfaces()
        if addresses.allSatisfy(\.isLoopback) {
            return interfaces.contains { $0.isLoopback } ? .reachableViaWiFi : .notReachable
        }
        let external = interfaces.filter { !$0.isLoopback }
        if external.contains(where: { !$0.name.hasPrefix("ww") }) { return .reachableViaWiFi }
        if !external.isEmpty { return .reachableViaWWAN }
        return .notReachable
    }

    struct ResolvedAddress { var isLoopback: Bool }
    struct Interface { var name: String; var isLoopback: Bool }

    static func resolve(_ host: String) -> [ResolvedAddress]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                    let firstOctet = UInt32(bigEndian: ipv4.sin_addr.s_addr) >> 24
                    addresses.append(ResolvedAddress(isLoopback: firstOctet == 127))
                case AF_INET6:
                    let ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                    let bytes = withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }
                    addresses.append(ResolvedAddress(isLoopback: bytes == Array(repeating: 0, count: 15) + [1]))
                default:
                    break
                }
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    static func upInterfaces() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var interfaces: [Interface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            if flags & Int32(IFF_UP) != 0, flags & Int32(IFF_RUNNING) != 0 {
                let name = String(cString: entry.pointee.ifa_name)
                if !interfaces.contains(where: { $0.name == name }) {
                    interfaces.append(Interface(name: name, isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return interfaces
    }
}
