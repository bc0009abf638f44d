import OperatingHours

/// Finds stores by words of their id, name or attributes (area, kind...) or by a dialed number,
/// for `find_stores`: each query word (and the romaji of a Japanese area or kind in it) found in a
/// store scores a point; stores without a point are left out; best first, ties by id.
struct StoreSearch: Sendable {
    /// A store and how many query words it matched.
    struct Match: Sendable {
        var store: Store
        var score: Int
    }

    /// Words that say nothing about a store.
    static let ignored: Set<String> = ["the", "a", "an", "of", "in", "at", "store", "restaurant", "店", "の"]

    /// Japanese words for the areas and kinds the stores' ids and attributes spell in romaji, so
    /// that "新宿の居酒屋" finds `shinjuku-izakaya`.
    static let romaji: [String: String] = [
        "居酒屋": "izakaya", "イタリアン": "italian", "トラットリア": "trattoria", "フレンチ": "french",
        "ビストロ": "bistro", "寿司": "sushi", "鮨": "sushi", "すし": "sushi", "バー": "bar", "ラーメン": "ramen",
        "カフェ": "cafe", "懐石": "kaiseki", "焼肉": "yakiniku", "ダイナー": "diner", "うどん": "udon",
        "天ぷら": "tempura", "そば": "soba", "蕎麦": "soba", "渋谷": "shibuya", "恵比寿": "ebisu", "新宿": "shinjuku",
        "上野": "ueno", "銀座": "ginza", "築地": "tsukiji", "池袋": "ikebukuro", "吉祥寺": "kichijoji",
        "神楽坂": "kagurazaka", "六本木": "roppongi", "横浜": "yokohama", "川崎": "kawasaki", "高松": "takamatsu",
        "浅草": "asakusa", "神田": "kanda", "梅田": "umeda", "難波": "namba", "なんば": "namba", "京都": "kyoto",
        "札幌": "sapporo", "福岡": "fukuoka", "名古屋": "nagoya", "那覇": "naha", "関東": "kanto", "関西": "kansai",
    ]

    let words: [String]
    /// The words and the romaji of the Japanese words they contain.
    let terms: [String]

    /// - Parameter query: Free text; split on blanks, punctuation and the Japanese space.
    init(query: String) {
        let separators: Set<Character> = [" ", "\t", ",", "、", "。", "　", "/", "?", "!", "？", "！"]
        words = query.lowercased().split(whereSeparator: { separators.contains($0) }).map(String.init)
            .filter { !Self.ignored.contains($0) }
        terms = Array(Set(words + words.flatMap { word in Self.romaji.filter { word.contains($0.key) }.map(\.value) }))
    }

    /// The stores matching at least one word, best first.
    func matches(in stores: [Store]) -> [Match] {
        let number = Store.normalizeDialedNumber(words.joined())
        return stores.compactMap { store -> Match? in
            let haystack = ([store.id, store.name] + store.attributes.values.sorted()).map { $0.lowercased() }
            var score = terms.filter { term in haystack.contains { $0.contains(term) } }.count
            if number.count >= 4, store.dialedNumbers.contains(where: { $0.hasSuffix(number) }) { score += 2 }
            return score > 0 ? Match(store: store, score: score) : nil
        }
        .sorted { $0.score != $1.score ? $0.score > $1.score : $0.store.id < $1.store.id }
    }
}
