import OperatingHours

/// Finds stores by words of their id, name or attributes (area, kind...) or by a dialed number,
/// for `find_stores`: each query word found in a store scores a point; stores without a point
/// are left out; best first, ties by id.
struct StoreSearch: Sendable {
    /// A store and how many query words it matched.
    struct Match: Sendable {
        var store: Store
        var score: Int
    }

    /// Words that say nothing about a store.
    static let ignored: Set<String> = ["the", "a", "an", "of", "in", "at", "store", "restaurant", "店", "の"]

    let words: [String]

    /// - Parameter query: Free text; split on blanks, punctuation and the Japanese space.
    init(query: String) {
        let separators: Set<Character> = [" ", "\t", ",", "、", "。", "　", "/", "?", "!", "？", "！"]
        words = query.lowercased().split(whereSeparator: { separators.contains($0) }).map(String.init)
            .filter { !Self.ignored.contains($0) }
    }

    /// The stores matching at least one word, best first.
    func matches(in stores: [Store]) -> [Match] {
        let number = Store.normalizeDialedNumber(words.joined())
        return stores.compactMap { store -> Match? in
            let haystack = ([store.id, store.name] + store.attributes.values.sorted()).map { $0.lowercased() }
            var score = words.filter { word in haystack.contains { $0.contains(word) } }.count
            if number.count >= 4, store.dialedNumbers.contains(where: { $0.hasSuffix(number) }) { score += 2 }
            return score > 0 ? Match(store: store, score: score) : nil
        }
        .sorted { $0.score != $1.score ? $0.score > $1.score : $0.store.id < $1.store.id }
    }
}
