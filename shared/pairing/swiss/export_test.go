package swiss

// SetWholeFieldLimit lowers the field size paired by one weighted matching
// over everyone, so that tests reach optimalWindow on small fields; it
// returns a function restoring the limit.
func SetWholeFieldLimit(n int) (restore func()) {
	old := wholeFieldLimit
	wholeFieldLimit = n
	return func() { wholeFieldLimit = old }
}

// Measure returns the objective of a paired round (boundary crossings from
// the top, then third floats, then colour faults) as one list.
func Measure(in Input, r Round) ([]int, error) {
	f, err := newField(in)
	if err != nil {
		return nil, err
	}
	byNum := map[int]*entrant{}
	var sorted []*entrant
	for _, e := range f.ents {
		byNum[e.num] = e
		if e.num != r.Bye {
			sorted = append(sorted, e)
		}
	}
	var bye *entrant
	if r.Bye != 0 {
		bye = byNum[r.Bye]
	}
	markLone(sorted, bye)
	var pairs []made
	for _, b := range r.Boards {
		pairs = append(pairs, made{red: byNum[b.Red], black: byNum[b.Black]})
	}
	o := f.measure(pairs, levelsOf(sorted))
	return append(o.cross, o.thirds, o.faults), nil
}
