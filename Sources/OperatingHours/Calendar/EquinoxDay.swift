/// The vernal and autumnal equinox days, by the standard approximation formulas.
///
/// `day = floor(C + 0.242194 × (y − 1980) − floor((y − 1980) / 4))` with C by range of years:
///
/// | years     | vernal (March) | autumnal (September) |
/// |-----------|----------------|----------------------|
/// | 1900–1979 | 20.8357        | 23.2588              |
/// | 1980–2099 | 20.8431        | 23.2488              |
/// | 2100–2150 | 21.8510        | 24.2488              |
///
/// The published 1900–1979 form writes `int((y − 1983) / 4)` with truncation, which equals
/// `floor((y − 1980) / 4)` for those years. The arithmetic is done in integers scaled by 10⁶, so
/// no floating-point rounding can move a day.
public enum EquinoxDay {
    /// The years the formulas cover.
    public static let supportedYears = 1900...2150

    /// The day of March of the vernal equinox day (春分の日), or `nil` outside 1900...2150.
    public static func vernal(year: Int) -> Int? {
        let constant: Int
        switch year {
        case 1900...1979: constant = 20_835_700
        case 1980...2099: constant = 20_843_100
        case 2100...2150: constant = 21_851_000
        default: return nil
        }
        return day(constant: constant, year: year)
    }

    /// The day of September of the autumnal equinox day (秋分の日), or `nil` outside 1900...2150.
    public static func autumnal(year: Int) -> Int? {
        let constant: Int
        switch year {
        case 1900...1979: constant = 23_258_800
        case 1980...2099: constant = 23_248_800
        case 2100...2150: constant = 24_248_800
        default: return nil
        }
        return day(constant: constant, year: year)
    }

    private static func day(constant: Int, year: Int) -> Int {
        let offset = year - 1980
        let leapCorrection = floorDivide(offset, 4)
        let scaled = constant + 242_194 * offset - leapCorrection * 1_000_000
        return floorDivide(scaled, 1_000_000)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
