import SharedValues
import Testing

/// What HTTP/1.1 can carry in a header field: a name that is a token, a value without control characters.
struct HTTPHeaderTests {
    /// RFC 9110 5.6.2's `tchar`, written out once more here to hold the function to it.
    static let tokenBytes = Set(
        Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
            + Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array("!#$%&'*+-.^_`|~".utf8)
    )

    @Test func aTokenIsMadeOfTokenCharactersOnly() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let text = String(decoding: [byte], as: UTF8.self)
            #expect(HTTPHeader.isToken(text) == Self.tokenBytes.contains(byte), "byte \(byte)")
            #expect(HTTPHeader.isToken("X-" + text + "-Y") == Self.tokenBytes.contains(byte), "byte \(byte) inside")
        }
        #expect(HTTPHeader.isToken("Content-Type"))
        #expect(!HTTPHeader.isToken(""))
        #expect(!HTTPHeader.isToken("Résumé"))
        #expect(!HTTPHeader.isToken("X Note"))
    }

    @Test func aValueMayHoldTabsAndTextButNoOtherControlCharacter() {
        #expect(HTTPHeader(name: "X-Note", value: "a\tb é ~").unsendableReason == nil)
        #expect(HTTPHeader(name: "X-Note", value: "").unsendableReason == nil)
        for byte in [UInt8(0), 0x0A, 0x0D, 0x1F, 0x7F] {
            let value = "a" + String(decoding: [byte], as: UTF8.self) + "b"
            #expect(
                HTTPHeader(name: "X-Note", value: value).unsendableReason
                    == "the value of header X-Note has a line break or another control character"
            )
        }
        #expect(
            HTTPHeader(name: "Résumé", value: "1").unsendableReason
                == #"the header name "Résumé" is not an HTTP token"#
        )
    }
}
