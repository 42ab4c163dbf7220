package clock

import (
	"errors"
	"fmt"
)

// Side is one face of the clock. The numbering matches xiangqi.Color (red 0,
// black 1) so callers convert with Side(color); the clock itself stays free of
// the rules engine.
type Side int8

// The two faces, and None for "no clock running".
const (
	Red   Side = 0
	Black Side = 1
	None  Side = -1
)

// Opponent returns the other face.
func (s Side) Opponent() Side { return s ^ 1 }

// String returns "red", "black" or "none".
func (s Side) String() string {
	switch s {
	case Red:
		return "red"
	case Black:
		return "black"
	}
	return "none"
}

// Face is one side's account as of the moment its clock last started or
// stopped; the running face's current values come from Face(side, now).
type Face struct {
	// RemainingMs is the time left in the current period, carry-over included.
	RemainingMs int64
	// UsedMs is the total time used, for the record (000 ch.7 §2 第6条).
	UsedMs int64
	// Moves counts completed moves: a move is complete when its clock is pressed (C-1).
	Moves int
	// Period is the index of the current period, counting repeats of the last one.
	Period int
	// PeriodMoves counts the moves completed in the current period.
	PeriodMoves int
}

// State is a game's clock: both faces, which one runs and since when (Unix ms).
// Every method is a pure function of the state and the "now" passed in (C-4);
// none of them mutates the receiver.
type State struct {
	Control Control
	Faces   [2]Face
	Running Side
	Since   int64
}

// ErrNotRunning is returned by Press when no clock runs (game not started,
// stopped for a ruling, or over).
var ErrNotRunning = errors.New("clock: no clock is running")

// FlagError reports that a side's time ran out before it completed the period's
// moves (C-3); At is the Unix ms when the flag fell.
type FlagError struct {
	Side Side
	At   int64
}

// Error says whose flag fell and when.
func (e *FlagError) Error() string {
	return fmt.Sprintf("clock: %s's time ran out at %d (C-3)", e.Side, e.At)
}

// New returns the clock for control c with both faces stopped, each holding
// the first period's time.
func New(c Control) State {
	s := State{Control: c, Running: None}
	if !c.Untimed() {
		for i := range s.Faces {
			s.Faces[i].RemainingMs = c.Periods[0].Ms
		}
	}
	return s
}

// charge spends elapsed ms of face f. A period without a move count that runs
// out flows into the next period (the world preset's first hour, C-2).
func (c Control) charge(f Face, elapsed int64) Face {
	if elapsed < 0 {
		elapsed = 0 // never let a skewed "now" give time back
	}
	f.UsedMs += elapsed
	if c.Untimed() {
		return f
	}
	f.RemainingMs -= elapsed
	for f.RemainingMs <= 0 && f.Period < len(c.Periods)-1 && c.period(f.Period).Moves == 0 {
		f.Period++
		f.PeriodMoves = 0
		f.RemainingMs += c.period(f.Period).Ms
	}
	return f
}

// Face returns side's account as of now, the running face charged up to now.
func (s State) Face(side Side, now int64) Face {
	f := s.Faces[side]
	if s.Running == side {
		f = s.Control.charge(f, now-s.Since)
	}
	return f
}

// Remaining returns side's time left in its current period as of now; it is
// zero or negative once the flag has fallen, and always 0 when untimed.
func (s State) Remaining(side Side, now int64) int64 { return s.Face(side, now).RemainingMs }

// MovesDue returns how many moves side must still complete in its current
// period as of now; 0 when the period has no move count or the game is untimed.
func (s State) MovesDue(side Side, now int64) int {
	if s.Control.Untimed() {
		return 0
	}
	f := s.Face(side, now)
	p := s.Control.period(f.Period)
	if p.Moves == 0 {
		return 0
	}
	return p.Moves - f.PeriodMoves
}

// Deadline returns when the running side's flag falls if it does not press
// first; ok is false when nothing runs or the game is untimed.
func (s State) Deadline() (at int64, ok bool) {
	if s.Running == None || s.Control.Untimed() {
		return 0, false
	}
	f := s.Faces[s.Running]
	left := f.RemainingMs
	for p := f.Period; p < len(s.Control.Periods)-1 && s.Control.period(p).Moves == 0; p++ {
		left += s.Control.period(p + 1).Ms
	}
	return s.Since + left, true
}

// Flagged reports the side whose time has run out as of now, and when (C-3).
// Only the running clock can run out; a stopped face whose time an arbiter
// corrected to zero counts as flagged from the moment it stopped.
func (s State) Flagged(now int64) (side Side, at int64, ok bool) {
	if s.Control.Untimed() {
		return None, 0, false
	}
	if d, running := s.Deadline(); running && now >= d {
		return s.Running, d, true
	}
	for i, f := range s.Faces {
		if Side(i) != s.Running && s.Control.charge(f, 0).RemainingMs <= 0 {
			return Side(i), s.Since, true
		}
	}
	return None, 0, false
}

// Start starts side's clock at now, stopping (and charging) any other first.
// A game's first Start is at the round's start, not at the player's arrival:
// a late player's time runs from the start of the round (C-6).
func (s State) Start(side Side, now int64) State {
	s = s.Stop(now)
	s.Running = side
	s.Since = now
	return s
}

// Stop stops the running clock at now, charging its time; used when a game
// ends or is pending a ruling (G-6).
func (s State) Stop(now int64) State {
	if s.Running == None {
		return s
	}
	s.Faces[s.Running] = s.Control.charge(s.Faces[s.Running], now-s.Since)
	s.Running = None
	s.Since = now
	return s
}

// Press completes the running side's move at now (C-1): its time is charged,
// the move counted, a completed period opens the next one with its time added
// to what is left (C-2), the increment is added, and the opponent's clock
// starts. If the time ran out first the press does not count: the result is a
// *FlagError and the state is unchanged (C-3).
func (s State) Press(now int64) (State, error) {
	if s.Running == None {
		return s, ErrNotRunning
	}
	if side, at, flagged := s.Flagged(now); flagged {
		return s, &FlagError{Side: side, At: at}
	}
	side := s.Running
	f := s.Control.charge(s.Faces[side], now-s.Since)
	f.Moves++
	f.PeriodMoves++
	if !s.Control.Untimed() {
		if p := s.Control.period(f.Period); p.Moves > 0 && f.PeriodMoves >= p.Moves {
			f.Period++
			f.PeriodMoves = 0
			f.RemainingMs += s.Control.period(f.Period).Ms
		}
		f.RemainingMs += s.Control.IncrementMs
	}
	s.Faces[side] = f
	s.Running = side.Opponent()
	s.Since = now
	return s, nil
}

// Correct sets side's remaining time to remainingMs as of now, as an arbiter
// does for a faulty clock (C-5); a running clock keeps running from now. The
// reason is the caller's to record.
func (s State) Correct(now int64, side Side, remainingMs int64) State {
	if s.Running != None {
		s.Faces[s.Running] = s.Control.charge(s.Faces[s.Running], now-s.Since)
		s.Since = now
	}
	s.Faces[side].RemainingMs = remainingMs
	return s
}

// FaceReading is what a display shows for one side.
type FaceReading struct {
	RemainingMs int64
	UsedMs      int64
	Moves       int
	Period      int // 0-based, counting repeats of the last period
	MovesDue    int // 0 when the period has no move count
	Flagged     bool
}

// Reading is the clock as shown at one instant.
type Reading struct {
	Untimed bool
	Running Side
	Faces   [2]FaceReading
}

// Read returns the clock as of now.
func (s State) Read(now int64) Reading {
	r := Reading{Untimed: s.Control.Untimed(), Running: s.Running}
	flagSide, _, flagged := s.Flagged(now)
	for i := range r.Faces {
		side := Side(i)
		f := s.Face(side, now)
		r.Faces[i] = FaceReading{
			RemainingMs: f.RemainingMs,
			UsedMs:      f.UsedMs,
			Moves:       f.Moves,
			Period:      f.Period,
			MovesDue:    s.MovesDue(side, now),
			Flagged:     flagged && flagSide == side,
		}
		if r.Untimed || f.RemainingMs < 0 {
			r.Faces[i].RemainingMs = 0 // a display never shows negative time
		}
	}
	return r
}
