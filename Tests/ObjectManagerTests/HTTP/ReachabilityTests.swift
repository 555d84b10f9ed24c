import Foundation
import TestSupport
import Testing

@testable import ObjectManager

struct ReachabilityTests {
    @Test func parsesTheStepVocabulary() {
        #expect(ReachabilityStatus(name: "Not  Reachable") == .notReachable)
        #expect(ReachabilityStatus(name: "reachable via wifi") == .reachableViaWiFi)
        #expect(ReachabilityStatus(name: "reachable via WWAN") == .reachableViaWWAN)
        #expect(ReachabilityStatus(name: "unknown") == .unknown)
        #expect(ReachabilityStatus(name: "offline") == nil)
    }

    @Test func liveProbeFindsLoopbackReachable() async {
        let status = await InterfaceReachabilityProbe().status(ofHost: "127.0.0.1")
        #expect(status == .reachableViaWiFi)
        #expect(await InterfaceReachabilityProbe().status(ofHost: "no-such-host.invalid") == .notReachable)
    }

    @Test func monitoringThenStubbingPostsNotificationsWithStatus() async throws {
        let center = NotificationCenter()
        let received = Recorder<String>()
        let observer = center.addObserver(forName: .reachabilityDidChange, object: nil, queue: nil) { note in
            let status = note.userInfo?[ReachabilityStatus.userInfoKey] as? ReachabilityStatus
            received.append(status?.rawValue ?? "nil")
        }
        defer { center.removeObserver(observer) }
        let client = HTTPClient(
            baseURL: URL(string: "http://127.0.0.1:1")!,
            transport: InMemoryTransport { _ in throw CancellationError() },
            reachabilityProbe: FixedReachabilityProbe(.reachableViaWiFi),
            notificationCenter: center
        )
        #expect(client.reachabilityStatus == .unknown)
        await client.startMonitoringReachability(every: .seconds(60))
        #expect(client.reachabilityStatus == .reachableViaWiFi)
        #expect(client.isMonitoringReachability)
        client.stubReachability(.notReachable)
        #expect(!client.isMonitoringReachability)
        #expect(client.reachabilityStatus == .notReachable)
        #expect(received.all == ["reachable via wifi", "not reachable"])
    }

    /// A probe that counts its calls and answers what the test sets.
    final class CountingProbe: ReachabilityProbe {
        let answer = Recorder<String>()
        let calls = Recorder<String>()
        init(_ status: ReachabilityStatus) { answer.append(status.rawValue) }
        func status(ofHost host: String) async -> ReachabilityStatus {
            calls.append(host)
            return ReachabilityStatus(name: answer.all.last ?? "") ?? .unknown
        }
    }

    @Test func clientsSharingAMonitorProbeOnceAndFollowItsChanges() async throws {
        let probe = CountingProbe(.reachableViaWiFi)
        let monitor = ReachabilityMonitor(host: "127.0.0.1", probe: probe, interval: .milliseconds(5))
        let center = NotificationCenter()
        func client() -> HTTPClient {
            HTTPClient(
                baseURL: URL(string: "http://127.0.0.1:1")!,
                transport: InMemoryTransport { _ in throw CancellationError() },
                reachabilityMonitor: monitor,
                notificationCenter: center
            )
        }
        let first = client()
        await first.startMonitoringReachability()
        let calls = probe.calls.all.count
        let second = client()
        await second.startMonitoringReachability()
        #expect(second.reachabilityStatus == .reachableViaWiFi)
        #expect(
            probe.calls.all.count - calls <= 1,
            "the second client's start did not probe again (at most one poll in between)"
        )

        probe.answer.append(ReachabilityStatus.notReachable.rawValue)
        #expect(
            await eventually { first.reachabilityStatus == .notReachable && second.reachabilityStatus == .notReachable }
        )

        // A stubbed client leaves the shared monitor running for the others.
        first.stubReachability(.reachableViaWWAN)
        probe.answer.append(ReachabilityStatus.reachableViaWiFi.rawValue)
        #expect(await eventually { second.reachabilityStatus == .reachableViaWiFi })
        #expect(first.reachabilityStatus == .reachableViaWWAN)
        monitor.stop()
        #expect(monitor.status == nil)
    }

    @Test func requestsCarryDefaultHeadersAndTimeout() {
        let client = HTTPClient(
            baseURL: URL(string: "http://127.0.0.1:1")!,
            transport: InMemoryTransport { _ in throw CancellationError() }
        )
        client.setDefaultHeader("X-API-Key", to: "secret")
        client.timeout = .seconds(3)
        let request = client.request(
            .post,
            url: client.baseURL,
            body: Data("{}".utf8),
            headers: [HTTPHeader(name: "Accept", value: "text/html")]
        )
        #expect(request.headers[field: "x-api-key"] == "secret")
        #expect(request.headers[field: "Accept"] == "text/html")
        #expect(request.headers[field: "Content-Type"] == "application/json")
        #expect(request.timeout == .seconds(3))
    }
}
