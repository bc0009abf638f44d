import Services
import Storage

/// Staffing reads and writes PostgreSQL through `StaffingStore`, whose methods are the port's.
extension StaffingStore: StaffingRecords {}
