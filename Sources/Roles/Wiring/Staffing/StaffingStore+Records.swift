import Services
import Storage

/// Staffing reads and writes PostgreSQL through `StaffingStore`, whose methods are the port's.
extension StaffingStore: StaffingRecords {}

/// The intraday reforecast reads today's contacts and the stored plan through the same store.
extension StaffingStore: IntradayRecords {}
