import Foundation
import NIOCore
import Testing

@testable import ObjectManager

/// A response body's bytes reach `Data` as they are: the readable ones only, whole or empty.
@Suite struct ByteBufferDataTests {
    @Test(arguments: [0, 1, 31, 1_005, 70_000])
    func readableBytesBecomeTheSameData(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var buffer = ByteBuffer(bytes: [0xAA, 0xBB] + bytes)
        buffer.moveReaderIndex(forwardBy: 2)  // read bytes are not part of it
        #expect(buffer.readableData == Data(bytes))
        #expect(buffer.readableData == Data(buffer.readableBytesView))
    }
}
