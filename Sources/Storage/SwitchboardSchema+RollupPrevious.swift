extension SwitchboardSchema {
    /// The initiation methods of a next contact that the classification compares: a previous
    /// contact's outcome reads its next contact only as `next_initiation_method = 'CALLBACK'`,
    /// `'QUEUE_TRANSFER'` or `'TRANSFER'` (`contact_outcome`, ``classification(materialized:)``).
    static let reclassifyingMethods = ["CALLBACK", "QUEUE_TRANSFER", "TRANSFER"]

    /// The contact rollups' upkeep of migration 11, looking for the previous contacts of only the
    /// written contacts that can change them.
    ///
    /// A previous contact's outcome depends on its next contact through the three comparisons of
    /// ``reclassifyingMethods`` alone. A written contact whose new version and replaced version
    /// (if any) both have another method (an inbound call, an outbound one, …) leaves every
    /// contact that names it as next exactly as it was, so the upkeep no longer scans each monthly
    /// partition's `next_contact_id` index for its id, nor computes the batch's distinct ids when
    /// nothing else needs them.
    ///
    /// Measured on `make bench-ingest`'s database (190,000 contacts, all inbound: the best case)
    /// with one 1,830-contact batch, `rollup_apply_written()` in a warm session, ten runs each after
    /// two: the scan of 1,830 ids took 2.9 ms of the 37 ms (a batch across the week, 1,405 queue
    /// buckets) and of the 21 ms (a batch within two hours, 37 buckets).
    static let rollupPrevious = Migration(
        version: 12,
        name: "rollup upkeep probes previous contacts only for next contacts that reclassify them",
        statements: [previousByMethodUpkeep]
    )

    /// Migration 11's `rollup_apply_written()` with the previous contacts looked up as above.
    static let previousByMethodUpkeep = replacing(
        in: roomyUpkeep,
        [
            (
                "        WHERE r.next_contact_id = ANY (ARRAY(SELECT contact_id FROM batch))\n",
                """
                        -- Only a written contact whose new or replaced version is a callback or a
                        -- transfer can change the outcome of a contact that names it as next.
                        WHERE r.next_contact_id = ANY (ARRAY(
                                  SELECT w.contact_id FROM pg_temp.rollup_written_contact w
                                  WHERE w.initiation_method IN (\(methodList))
                                  UNION ALL
                                  SELECT p.contact_id FROM pre p WHERE p.initiation_method IN (\(methodList))))

                """
            )
        ])

    /// ``reclassifyingMethods`` as SQL literals.
    private static var methodList: String {
        reclassifyingMethods.map { "'\($0)'" }.joined(separator: ", ")
    }
}
