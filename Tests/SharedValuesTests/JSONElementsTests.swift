import Foundation
import Testing

@testable import SharedValues

/// An array's elements read one at a time where they are written read what the parser reads of the whole
/// array, and an array not read to its end is never taken as read.
struct JSONElementsTests {
    /// Reads `text`, which follows an array's `[` (or, `afterElement`, one of its elements).
    func reading<Result>(_ text: String, afterElement: Bool = false, _ body: (inout JSONElements) -> Result)
        -> Result
    {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var fields = JSONElements(UnsafeBufferPointer(buffer), afterElement: afterElement)
            return body(&fields)
        }
    }

    @Test func fieldsReadInOrderThenTheEnd() {
        reading(#"3, "steps" ,[1,{"a":null}],"passed",120] "#) { fields in
            let first = fields.int()
            #expect(first == 3)
            let second = fields.string()
            #expect(second == "steps")
            let third = fields.next()
            #expect(third == [1, ["a": nil]])
            let fourth = fields.next()
            #expect(fourth == "passed")
            let fifth = fields.int()
            #expect(fifth == 120)
            let ended = fields.isAtEnd()
            #expect(ended)
            let after = fields.next()
            #expect(after == nil)
        }
        reading(#","f",7]"#, afterElement: true) { fields in
            let file = fields.string()
            #expect(file == "f")
            let number = fields.int()
            let ended = fields.isAtEnd()
            #expect(number == 7 && ended)
        }
        // An array with nothing more: right after its `[`, or after its last element.
        reading("]") { fields in
            let ended = fields.isAtEnd()
            #expect(ended)
        }
        reading(" ]", afterElement: true) { fields in
            let ended = fields.isAtEnd()
            #expect(ended)
        }
    }

    @Test func anArrayNotReadToItsEndIsNotAtItsEnd() {
        for text in ["1,2]", "1] x", "1,,2]", "1,2", "1,]", "1 2]", "1"] {
            reading(text) { fields in
                _ = fields.int()
                let ended = fields.isAtEnd()
                #expect(!ended, "\(text)")
            }
        }
        // After an element, `]` or a comma and an element: nothing else.
        for text in ["1]", "]]", ",]", ""] {
            reading(text, afterElement: true) { fields in
                let ended = fields.isAtEnd()
                #expect(!ended, "\(text)")
            }
        }
        // Another kind than asked for is not read as it.
        reading(#""7",7]"#) { fields in
            let asNumber = fields.int()
            let next = fields.int()
            let ended = fields.isAtEnd()
            #expect(asNumber == nil && next == 7 && ended)
        }
    }

    /// Whatever the text, reading every element gives the parser's array, or stops where the parser fails.
    @Test func readsWhatTheParserReads() throws {
        let texts = [
            "]", #"1,"a",true,false,null,-2.5e3,[],{}]"#, #"[[[1]]],{"k":[2,"\u00e9\n"]}]"#, "01]", "1,2",
            #""unterminated]"#, "1e999]", String(repeating: "[", count: 300) + String(repeating: "]", count: 301),
            String(repeating: "[", count: 254) + String(repeating: "]", count: 255), "\"\u{1}\"]", "-]",
        ]
        for text in texts {
            let parsed = try? JSONValue(parsing: Data(("[" + text).utf8))
            let read = reading(text) { fields -> JSONValue? in
                var elements: [JSONValue] = []
                while let element = fields.next() { elements.append(element) }
                return fields.isAtEnd() ? .array(elements) : nil
            }
            #expect(read == parsed, "\(text.prefix(40))")
        }
    }

    /// An element that is an array is read the same way, one element at a time; read as anything else, or
    /// not to its end, it ends the elements.
    @Test func anArrayElementIsReadOneElementAtATime() {
        func pairs(_ text: String) -> [[String]]? {
            reading(text) { fields -> [[String]]? in
                let pairs = fields.array { pairs -> [[String]]? in
                    var read: [[String]] = []
                    while let pair = pairs.array({ pair -> [String]? in
                        guard let method = pair.string(), let path = pair.string() else { return nil }
                        return [method, path]
                    }) {
                        read.append(pair)
                    }
                    return read
                }
                return fields.isAtEnd() ? pairs : nil
            }
        }
        #expect(pairs(#"[["GET","/a"], ["POST","/b"]]]"#) == [["GET", "/a"], ["POST", "/b"]])
        #expect(pairs("[]]") == [])
        for wrong in [
            #"[["GET","/a","x"]]]"#, #"[["GET"]]]"#, #"["GET"]]"#, #"[["GET","/a"]]"#, #"[["GET","/a"],]]"#, "7]",
        ] {
            #expect(pairs(wrong) == nil, "\(wrong)")
        }
        // Nested no deeper than the parser nests.
        func depth(_ levels: Int) -> Bool {
            reading(String(repeating: "[", count: levels) + String(repeating: "]", count: levels + 1)) { fields in
                func enter(_ elements: inout JSONElements, _ left: Int) -> Bool? {
                    left == 0 ? true : elements.array { enter(&$0, left - 1) }
                }
                return enter(&fields, levels) == true && fields.isAtEnd()
            }
        }
        #expect(depth(JSONParser.maxDepth - 1))
        #expect(!depth(JSONParser.maxDepth))
    }
}
