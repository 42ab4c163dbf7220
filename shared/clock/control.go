// Package clock holds xiangqi time controls and the two-faced game clock
// (C-1…C-6, 000 ch.7 §1). Everything is a pure function of recorded
// timestamps in Unix milliseconds; the server passes "now" in (C-4).
package clock

import (
	"fmt"
	"sort"
)

// Period is one stage of a time control: Ms milliseconds for Moves moves.
// Moves 0 means no move count: as the last period it is sudden death, before
// another period it is time that runs out into the next one (C-2).
type Period struct {
	Moves int
	Ms    int64
}

// Control is a time control: periods played in order, the last one repeating,
// unused time carrying over, plus an optional Fischer increment added after
// every completed move. No periods means untimed (C-2, "基层…也可以不计时间").
type Control struct {
	// Name is the preset name the control came from, or "" for a custom one.
	Name        string
	Periods     []Period
	IncrementMs int64
}

// Limits that keep a custom control sane; a real event never needs more.
const (
	MaxPeriods   = 8
	MaxPeriodMs  = 24 * 60 * 60 * 1000
	MaxMoves     = 500
	MaxIncrement = 10 * 60 * 1000
)

const minute = 60 * 1000

// presets are the named controls of C-2 (000 ch.7 §1), with the names of the OpenAPI document.
var presets = map[string]Control{
	// 世界性比赛: the first hour without a move count, then 10 moves in 10 minutes.
	"world": {Periods: []Period{{0, 60 * minute}, {10, 10 * minute}}},
	// 等级赛: 40 moves in 90 minutes, then 10 in every 15.
	"90/40+15/10": {Periods: []Period{{40, 90 * minute}, {10, 15 * minute}}},
	// 等级赛: 40 in 90, 20 in 30, then 10 in every 15.
	"90/40+30/20+15/10": {Periods: []Period{{40, 90 * minute}, {20, 30 * minute}, {10, 15 * minute}}},
	// 30 moves in 60 minutes, then 10 in every 10.
	"60/30+10/10": {Periods: []Period{{30, 60 * minute}, {10, 10 * minute}}},
	// 快棋赛: 40 moves in 10 minutes, then 30 in every 5.
	"rapid-10/40+5/30": {Periods: []Period{{40, 10 * minute}, {30, 5 * minute}}},
	// 快棋赛: 30 moves in every 5 minutes.
	"rapid-5/30": {Periods: []Period{{30, 5 * minute}}},
	// 不计时间.
	"untimed": {},
}

// PresetNames returns the preset names in sorted order.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Preset returns the named control of C-2; ok is false for an unknown name.
// Sudden death (每方时间包干使用) has no fixed length in 000, so it is a custom
// control: SuddenDeath(ms).
func Preset(name string) (c Control, ok bool) {
	p, ok := presets[name]
	if !ok {
		return Control{}, false
	}
	p.Name = name
	p.Periods = append([]Period(nil), p.Periods...)
	return p, true
}

// SuddenDeath returns the control with one total time and no move count (C-2).
func SuddenDeath(ms int64) Control {
	return Control{Periods: []Period{{0, ms}}}
}

// ControlError says which field of a time control breaks which rule.
type ControlError struct {
	Field   string // e.g. "periods[1].ms"
	Rule    string // rule id (shared/RULES.md), "C-2"
	Message string
}

// Error returns "<field>: <message> (<rule>)".
func (e *ControlError) Error() string { return e.Field + ": " + e.Message + " (" + e.Rule + ")" }

// NewControl validates periods and an increment and returns the custom control.
// It is the constructor the HTTP layer calls after decoding the JSON shape.
func NewControl(periods []Period, incrementMs int64) (Control, error) {
	c := Control{Periods: append([]Period(nil), periods...), IncrementMs: incrementMs}
	if err := c.Validate(); err != nil {
		return Control{}, err
	}
	return c, nil
}

// Validate reports the first field that breaks C-2 or the sanity limits.
func (c Control) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ControlError{Field: field, Rule: "C-2", Message: fmt.Sprintf(format, args...)}
	}
	if len(c.Periods) > MaxPeriods {
		return bad("periods", "at most %d periods", MaxPeriods)
	}
	for i, p := range c.Periods {
		switch {
		case p.Ms <= 0:
			return bad(fmt.Sprintf("periods[%d].ms", i), "must be positive")
		case p.Ms > MaxPeriodMs:
			return bad(fmt.Sprintf("periods[%d].ms", i), "at most %d", int64(MaxPeriodMs))
		case p.Moves < 0:
			return bad(fmt.Sprintf("periods[%d].moves", i), "must not be negative")
		case p.Moves > MaxMoves:
			return bad(fmt.Sprintf("periods[%d].moves", i), "at most %d", MaxMoves)
		}
	}
	switch {
	case c.IncrementMs < 0:
		return bad("incrementMs", "must not be negative")
	case c.IncrementMs > MaxIncrement:
		return bad("incrementMs", "at most %d", int64(MaxIncrement))
	case c.IncrementMs > 0 && len(c.Periods) == 0:
		return bad("incrementMs", "an untimed game has no increment")
	}
	return nil
}

// Untimed reports whether the control keeps no time at all.
func (c Control) Untimed() bool { return len(c.Periods) == 0 }

// period returns period i; past the end the last period repeats (C-2).
func (c Control) period(i int) Period {
	if i >= len(c.Periods) {
		return c.Periods[len(c.Periods)-1]
	}
	return c.Periods[i]
}
