import Testing

@testable import Services

@Suite("Import: pseudo-partitions spread contacts evenly over the lanes")
struct ImportPartitionTests {
    /// How many of `ids` take each of the 16 pseudo-partitions.
    private func spread(_ ids: [String]) -> [Int] {
        var counts = [Int](repeating: 0, count: Int(CTRFileBatches.partitions))
        for id in ids { counts[Int(CTRFileBatches.partition(ofContact: id))] += 1 }
        return counts
    }

    @Test(
        "every pseudo-partition takes its share, and so does each of two lanes (partition number mod 2)",
        arguments: [
            // make bench-ingest's ContactIds: each number written twice, which left plain FNV-1a
            // with 4 even pseudo-partitions out of 16.
            (0..<20_000).map { String(format: "c%07d-0000-4000-8000-%012d", $0, $0) },
            // UUIDs as Amazon Connect writes them, from a fixed generator.
            (0..<20_000).map { index -> String in
                var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1
                var hex = ""
                for position in 0..<32 {
                    state ^= state >> 33
                    state &*= 0xFF51_AFD7_ED55_8CCD
                    state ^= state >> 29
                    hex.append(Array("0123456789abcdef")[Int(state & 15)])
                    if [7, 11, 15, 19].contains(position) { hex.append("-") }
                }
                return hex
            },
        ])
    func evenSpread(ids: [String]) {
        let counts = spread(ids)
        // 1,250 each expected; a fair hash stays within ±20 % here.
        #expect(counts.allSatisfy { (1_000...1_500).contains($0) }, "\(counts)")
        let even = counts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reduce(0, +)
        #expect((9_400...10_600).contains(even), "\(even) of 20,000 on lane 0")
    }
}
