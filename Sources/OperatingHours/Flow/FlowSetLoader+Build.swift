/// The second phase of loading: resolving references across files and compiling stores.
extension FlowSetLoader {
    func build() throws(FlowError) -> FlowSet {
        var problems = self.problems
        func report(_ issue: FlowIssue, at location: SourceLocation) {
            problems.append(FlowProblem(location: location, issue: issue))
        }

        var calendars: [String: any HolidayCalendar] = [FlowSet.japaneseCalendarId: JapaneseHolidayCalendar.standard]
        var calendarLocations: [String: SourceLocation] = [:]
        for declaration in self.calendars {
            if let first = calendarLocations[declaration.id] {
                report(.duplicateId(kind: "calendar", id: declaration.id, first: first), at: declaration.location)
                continue
            }
            calendarLocations[declaration.id] = declaration.location
            if declaration.baseIsJapan {
                calendars[declaration.id] = AdjustedHolidayCalendar(
                    base: JapaneseHolidayCalendar.standard, additions: declaration.additions,
                    removals: declaration.removals)
            } else {
                let removed = Set(declaration.removals)
                calendars[declaration.id] = ListHolidayCalendar(
                    holidays: declaration.additions.filter { !removed.contains($0.date) },
                    years: JapaneseHolidayCalendar.supportedYears)
            }
        }

        var profiles: [String: HoursProfile] = [:]
        var profileLocations: [String: SourceLocation] = [:]
        for declaration in self.profiles {
            let id = declaration.profile.id
            if let first = profileLocations[id] {
                report(.duplicateId(kind: "hours profile", id: id, first: first), at: declaration.location)
                continue
            }
            profileLocations[id] = declaration.location
            profiles[id] = declaration.profile
        }

        var zones: [String: TimeZoneOffsets] = [:]
        var stores: [Store] = []
        var storeLocations: [String: SourceLocation] = [:]
        var numberOwners: [String: (store: String, location: SourceLocation)] = [:]
        for declaration in self.stores {
            if let first = storeLocations[declaration.id] {
                report(.duplicateId(kind: "store", id: declaration.id, first: first), at: declaration.location)
                continue
            }
            storeLocations[declaration.id] = declaration.location
            for (number, location) in declaration.numbers {
                if let owner = numberOwners[number] {
                    report(.duplicateDialedNumber(number, firstStore: owner.store, first: owner.location), at: location)
                } else {
                    numberOwners[number] = (declaration.id, location)
                }
            }
            let profile = profiles[declaration.profile.0]
            if profile == nil { report(.unknownHoursProfile(declaration.profile.0), at: declaration.profile.1) }
            let calendar = calendars[declaration.calendar.0]
            if calendar == nil { report(.unknownCalendar(declaration.calendar.0), at: declaration.calendar.1) }
            let zoneId = declaration.timeZone.0
            if zones[zoneId] == nil, let zone = TimeZoneOffsets(identifier: zoneId) { zones[zoneId] = zone }
            let zone = zones[zoneId]
            if zone == nil { report(.unknownTimeZone(zoneId), at: declaration.timeZone.1) }
            guard let profile, let calendar, let zone else { continue }
            let merged = profile.adding(closures: declaration.closures, overrides: declaration.overrides)
            stores.append(
                Store(
                    id: declaration.id, name: declaration.name,
                    dialedNumbers: declaration.numbers.map(\.0).filter { numberOwners[$0]?.store == declaration.id },
                    attributes: declaration.attributes, profileId: profile.id, calendarId: declaration.calendar.0,
                    schedule: StoreSchedule(profile: merged, timeZone: zone, calendar: calendar)))
        }

        var flows: [Flow] = []
        var flowLocations: [String: SourceLocation] = [:]
        for declaration in self.flows {
            let name = declaration.flow.name
            if let first = flowLocations[name] {
                report(.duplicateId(kind: "flow", id: name, first: first), at: declaration.location)
                continue
            }
            flowLocations[name] = declaration.location
            for (id, location) in declaration.storeReferences where storeLocations[id] == nil {
                report(.unknownStore(id), at: location)
            }
            flows.append(declaration.flow)
        }

        guard problems.isEmpty else { throw FlowError(problems: problems) }
        return FlowSet(stores: stores, flows: flows, profiles: profiles, calendars: calendars)
    }
}
