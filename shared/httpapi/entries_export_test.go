package httpapi

// EntryCounts returns the entry steps run and the entries served so far,
// for the burst test to report its retries.
func EntryCounts() (attempts, runs int64) { return entryAttempts.Load(), entryRuns.Load() }
