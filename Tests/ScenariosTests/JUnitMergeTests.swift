import Foundation
import Scenarios
import Testing

struct JUnitMergeTests {
    /// The JUnit report of ``ReporterTests/events`` restricted to `ids`, as a shard of that run writes it.
    static func report(_ ids: Set<ScenarioID>, properties: [JUnitProperty] = []) -> String {
        let junit = JUnitReporter(properties: properties)
        for event in ReporterTests.events {
            switch event {
            case .runStarted(var plan):
                plan.scenarios = plan.scenarios.filter { ids.contains($0.id) }
                junit.handle(.runStarted(plan))
            case .runFinished:
                junit.handle(event)
            default:
                if let id = event.scenario, ids.contains(id) { junit.handle(event) }
            }
        }
        return junit.xml()
    }

    static let all: Set<ScenarioID> = [ReporterTests.posting, ReporterTests.rejected, ReporterTests.listing]

    static func merge(_ files: [(String, String)]) throws(JUnitMergeError) -> String {
        try JUnitMerge.merge(files.map { (path: $0.0, data: Data($0.1.utf8)) })
    }

    @Test func mergingOneReportWritesItAgain() throws {
        let full = Self.report(Self.all)
        #expect(try Self.merge([("full.xml", full)]) == full)
    }

    @Test func aFeatureSplitOverShardsBecomesOneTestsuite() throws {
        let first = Self.report(
            [ReporterTests.posting, ReporterTests.listing],
            properties: [JUnitProperty(name: "shard", value: "1/2")]
        )
        let second = Self.report([ReporterTests.rejected], properties: [JUnitProperty(name: "shard", value: "2/2")])
        var expected = Self.report(Self.all)
        // Each shard's run took 0.045 s: the merged report sums them.
        expected = expected.replacingOccurrences(
            of: #"failures="1" skipped="1" time="0.045">"#,
            with: #"failures="1" skipped="1" time="0.090">"#
        )
        expected = expected.replacingOccurrences(
            of: #"skipped="0" time="0.043">"# + "\n",
            with: #"skipped="0" time="0.043">"# + "\n" + """
                    <properties>
                      <property name="shard" value="1/2"/>
                      <property name="shard" value="2/2"/>
                    </properties>

                """
        )
        expected = expected.replacingOccurrences(
            of: #"skipped="1" time="0.000">"# + "\n",
            with: #"skipped="1" time="0.000">"# + "\n" + """
                    <properties>
                      <property name="shard" value="1/2"/>
                    </properties>

                """
        )
        #expect(try Self.merge([("shard-1.xml", first), ("shard-2.xml", second)]) == expected)
    }

    @Test func loneTestsuitesAndErrorCountsAreMerged() throws {
        let one = """
            <?xml version="1.0"?>
            <testsuite name="Sync" tests="1" failures="0" errors="1" time="1.5" hostname="a">
              <testcase classname="Sync" name="pull" time="1.5"><error message="boom">trace</error></testcase>
            </testsuite>
            """
        let two = """
            <testsuites><testsuite name="Sync" tests="2" failures="1" time="0.25">
              <properties><property name="shuffle seed" value="42"/></properties>
              <testcase classname="Sync" name="push" time="0.125"><failure message="no">x &amp; y</failure></testcase>
              <testcase classname="Sync" name="merge" time="0.125"/>
            </testsuite></testsuites>
            """
        #expect(
            try Self.merge([("one.xml", one), ("two.xml", two)]) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="merged" tests="3" failures="1" errors="1" skipped="0" time="1.750">
                  <testsuite name="Sync" tests="3" failures="1" errors="1" skipped="0" time="1.750" hostname="a">
                    <properties>
                      <property name="shuffle seed" value="42"/>
                    </properties>
                    <testcase classname="Sync" name="pull" time="1.5">
                      <error message="boom">trace</error>
                    </testcase>
                    <testcase classname="Sync" name="push" time="0.125">
                      <failure message="no">x &amp; y</failure>
                    </testcase>
                    <testcase classname="Sync" name="merge" time="0.125"/>
                  </testsuite>
                </testsuites>

                """
        )
    }

    @Test func malformedXMLIsALocatedErrorNamingTheFile() {
        let text = "<testsuites>\n  <testsuite name=\"A\">\n  </testsuites>\n"
        #expect {
            try Self.merge([("good.xml", Self.report(Self.all)), ("shard-2.xml", text)])
        } throws: { error in
            "\(error)" == """
                shard-2.xml:3:16: error: Malformed JUnit XML: an end tag does not match its start tag.
                  </testsuites>
                               ^
                """
        }
    }

    @Test func otherDocumentsAndBadNumbersAreErrorsNamingTheFile() {
        #expect(throws: JUnitMergeError.notJUnit(path: "page.xml", root: "html")) {
            try Self.merge([("page.xml", "<html><body/></html>")])
        }
        #expect(
            JUnitMergeError.notJUnit(path: "page.xml", root: "html").description
                == "'page.xml' is not a JUnit report: its root element is <html>, not <testsuites> or <testsuite>."
        )
        #expect(throws: JUnitMergeError.notANumber(path: "a.xml", suite: "A", attribute: "tests", value: "many")) {
            try Self.merge([("a.xml", #"<testsuites><testsuite name="A" tests="many"/></testsuites>"#)])
        }
        #expect(
            JUnitMergeError.notANumber(path: "a.xml", suite: "A", attribute: "tests", value: "many").description
                == #"'a.xml': testsuite 'A' has tests="many", which is not a number."#
        )
    }

    @Test func propertiesAreWrittenInEveryTestsuite() {
        let xml = Self.report(
            Self.all,
            properties: [JUnitProperty(name: "shuffle seed", value: "42"), JUnitProperty(name: "shard", value: "2/3")]
        )
        let block = """
                <properties>
                  <property name="shuffle seed" value="42"/>
                  <property name="shard" value="2/3"/>
                </properties>

            """
        #expect(xml.components(separatedBy: block).count == 3)
        #expect(xml.contains(#"time="0.043">"# + "\n" + block + "    <testcase"))
        #expect(!Self.report(Self.all).contains("<properties>"))
    }
}
