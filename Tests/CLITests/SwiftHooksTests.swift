import CSwiftHooks
import Foundation
import Testing

/// The run takes over Swift concurrency's global enqueue through the runtime's own hook variable, reached by
/// the linker (a `dlsym` of a statically linked executable finds nothing): the shim's address is the one the
/// runtime exports.
struct SwiftHooksTests {
    @Test func theShimReachesTheRuntimesEnqueueHook() throws {
        let exported = try #require(dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook"))
        #expect(UnsafeMutableRawPointer(cswifthooks_enqueue_global_hook()) == exported)
    }
}
