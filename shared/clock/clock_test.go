package clock_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
)

const mn = 60 * 1000 // one minute in ms

func preset(t *testing.T, name string) clock.Control {
	t.Helper()
	c, ok := clock.Preset(name)
	if !ok {
		t.Fatalf("Preset(%q) unknown", name)
	}
	return c
}

// repeat returns n copies of d: n red moves of d ms each.
func repeat(n int, d int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = d
	}
	return out
}

func concat(parts ...[]int64) []int64 {
	var out []int64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// playRed starts red at 0 and lets red think d ms per move, black answering
// instantly; it stops at the first flag and returns the state and the error.
func playRed(c clock.Control, red []int64) (clock.State, int64, error) {
	s := clock.New(c).Start(clock.Red, 0)
	now := int64(0)
	for _, d := range red {
		now += d
		var err error
		if s, err = s.Press(now); err != nil {
			return s, now, err
		}
		if s, err = s.Press(now); err != nil { // black
			return s, now, err
		}
	}
	return s, now, nil
}

func TestPreset_C2_Periods(t *testing.T) {
	tests := []struct {
		name string
		want []clock.Period
	}{
		{"world", []clock.Period{{Moves: 0, Ms: 60 * mn}, {Moves: 10, Ms: 10 * mn}}},
		{"90/40+15/10", []clock.Period{{Moves: 40, Ms: 90 * mn}, {Moves: 10, Ms: 15 * mn}}},
		{"90/40+30/20+15/10", []clock.Period{{Moves: 40, Ms: 90 * mn}, {Moves: 20, Ms: 30 * mn}, {Moves: 10, Ms: 15 * mn}}},
		{"60/30+10/10", []clock.Period{{Moves: 30, Ms: 60 * mn}, {Moves: 10, Ms: 10 * mn}}},
		{"rapid-10/40+5/30", []clock.Period{{Moves: 40, Ms: 10 * mn}, {Moves: 30, Ms: 5 * mn}}},
		{"rapid-5/30", []clock.Period{{Moves: 30, Ms: 5 * mn}}},
		{"untimed", nil},
	}
	if got := len(clock.PresetNames()); got != len(tests) {
		t.Errorf("PresetNames() has %d names, want %d", got, len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := preset(t, tt.name)
			if c.Name != tt.name {
				t.Errorf("Name = %q, want %q", c.Name, tt.name)
			}
			if len(c.Periods) != len(tt.want) || (len(tt.want) > 0 && !reflect.DeepEqual(c.Periods, tt.want)) {
				t.Errorf("Periods = %v, want %v", c.Periods, tt.want)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
	if _, ok := clock.Preset("blitz"); ok {
		t.Error(`Preset("blitz") found, want unknown`)
	}
	// Presets hand out copies: changing one must not change the table.
	c := preset(t, "world")
	c.Periods[0].Ms = 1
	if preset(t, "world").Periods[0].Ms != 60*mn {
		t.Error("Preset returned a shared slice")
	}
}

// TestPeriod_C2 plays red's moves (ms per move) and checks red's face after them.
func TestPeriod_C2(t *testing.T) {
	tests := []struct {
		name     string
		control  string
		red      []int64
		want     clock.Face // UsedMs is checked too
		wantFlag bool
	}{
		{
			name: "World_FirstHourHasNoCount", control: "world",
			red:  repeat(50, mn),
			want: clock.Face{RemainingMs: 10 * mn, UsedMs: 50 * mn, Moves: 50, PeriodMoves: 50},
		},
		{
			// 61 minutes on the first move: the hour ran out into 10/10, and the
			// move counts as the first of that period.
			name: "World_HourRunsOutIntoSecondPeriod", control: "world",
			red:  []int64{61 * mn},
			want: clock.Face{RemainingMs: 9 * mn, UsedMs: 61 * mn, Moves: 1, Period: 1, PeriodMoves: 1},
		},
		{
			// Exactly 60 minutes: the hour is spent to the millisecond, and
			// the second period opens then (C-2), not one millisecond later.
			name: "World_HourSpentExactlyOpensSecondPeriod", control: "world",
			red:  []int64{60 * mn},
			want: clock.Face{RemainingMs: 10 * mn, UsedMs: 60 * mn, Moves: 1, Period: 1, PeriodMoves: 1},
		},
		{
			name: "World_HourLessOneMsStaysInFirst", control: "world",
			red:  []int64{60*mn - 1},
			want: clock.Face{RemainingMs: 1, UsedMs: 60*mn - 1, Moves: 1, PeriodMoves: 1},
		},
		{
			name: "World_TenMovesOpenTheRepeat", control: "world",
			red:  concat([]int64{61 * mn}, repeat(9, 30*1000)),
			want: clock.Face{RemainingMs: 9*mn - 9*30*1000 + 10*mn, UsedMs: 61*mn + 9*30*1000, Moves: 10, Period: 2},
		},
		{
			name: "World_FlagInSecondPeriod", control: "world",
			red: concat([]int64{61 * mn}, repeat(8, mn), []int64{2 * mn}),
			// 9 moves of period 1 done in 8 mn... the 9th (10th overall) needs 2 mn with 1 left.
			want:     clock.Face{RemainingMs: mn, UsedMs: 69 * mn, Moves: 9, Period: 1, PeriodMoves: 9},
			wantFlag: true,
		},
		{
			name: "90/40_FortyMovesAddFifteen", control: "90/40+15/10",
			red:  repeat(40, 2*mn),
			want: clock.Face{RemainingMs: 10*mn + 15*mn, UsedMs: 80 * mn, Moves: 40, Period: 1},
		},
		{
			name: "90/40_LastPeriodRepeats", control: "90/40+15/10",
			red:  concat(repeat(40, 2*mn), repeat(10, mn), repeat(10, mn)),
			want: clock.Face{RemainingMs: 10*mn + 15*mn - 10*mn + 15*mn - 10*mn + 15*mn, UsedMs: 100 * mn, Moves: 60, Period: 3},
		},
		{
			name: "90/40_FlagBeforeFortieth", control: "90/40+15/10",
			red:  concat(repeat(39, 2*mn), []int64{13 * mn}),
			want: clock.Face{RemainingMs: 12 * mn, UsedMs: 78 * mn, Moves: 39, PeriodMoves: 39}, wantFlag: true,
		},
		{
			name: "90/40+30/20_SecondPeriod", control: "90/40+30/20+15/10",
			red:  concat(repeat(40, 2*mn), repeat(20, mn)),
			want: clock.Face{RemainingMs: 10*mn + 30*mn - 20*mn + 15*mn, UsedMs: 100 * mn, Moves: 60, Period: 2},
		},
		{
			name: "90/40+30/20_ThirdRepeats", control: "90/40+30/20+15/10",
			red:  concat(repeat(40, 2*mn), repeat(20, mn), repeat(10, mn)),
			want: clock.Face{RemainingMs: 35*mn - 10*mn + 15*mn, UsedMs: 110 * mn, Moves: 70, Period: 3},
		},
		{
			name: "90/40+30/20_FlagInSecond", control: "90/40+30/20+15/10",
			red:  concat(repeat(40, 2*mn), repeat(19, 2*mn), []int64{3 * mn}),
			want: clock.Face{RemainingMs: 2 * mn, UsedMs: 118 * mn, Moves: 59, Period: 1, PeriodMoves: 19}, wantFlag: true,
		},
		{
			name: "60/30_ThirtyMovesAddTen", control: "60/30+10/10",
			red:  repeat(30, mn),
			want: clock.Face{RemainingMs: 40 * mn, UsedMs: 30 * mn, Moves: 30, Period: 1},
		},
		{
			name: "60/30_CarryOverIntoRepeats", control: "60/30+10/10",
			red:  concat(repeat(30, mn), repeat(20, 2*mn)),
			want: clock.Face{RemainingMs: 20 * mn, UsedMs: 70 * mn, Moves: 50, Period: 3}, // 40 - 20 + 10 - 20 + 10
		},
		{
			name: "Rapid10/40_FortyThenThirtyInFive", control: "rapid-10/40+5/30",
			red:  concat(repeat(40, 10*1000), repeat(30, 10*1000)),
			want: clock.Face{RemainingMs: 10*mn - 400*1000 + 5*mn - 300*1000 + 5*mn, UsedMs: 700 * 1000, Moves: 70, Period: 2},
		},
		{
			name: "Rapid10/40_Flag", control: "rapid-10/40+5/30",
			red:  concat(repeat(39, 15*1000), []int64{16 * 1000}),
			want: clock.Face{RemainingMs: 15 * 1000, UsedMs: 585 * 1000, Moves: 39, PeriodMoves: 39}, wantFlag: true,
		},
		{
			name: "Rapid5/30_Repeats", control: "rapid-5/30",
			red:  repeat(60, 5*1000),
			want: clock.Face{RemainingMs: 5*mn - 150*1000 + 5*mn - 150*1000 + 5*mn, UsedMs: 300 * 1000, Moves: 60, Period: 2},
		},
		{
			name: "Untimed_NeverFlags", control: "untimed",
			red:  repeat(5, 24*60*mn),
			want: clock.Face{UsedMs: 5 * 24 * 60 * mn, Moves: 5, PeriodMoves: 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, now, err := playRed(preset(t, tt.control), tt.red)
			var fe *clock.FlagError
			if flagged := errors.As(err, &fe); flagged != tt.wantFlag {
				t.Fatalf("flag error = %v, want flag %v", err, tt.wantFlag)
			}
			if tt.wantFlag {
				if fe.Side != clock.Red {
					t.Errorf("flagged side = %v, want red", fe.Side)
				}
				if side, _, ok := s.Flagged(now); !ok || side != clock.Red {
					t.Errorf("Flagged(%d) = %v, %v; want red", now, side, ok)
				}
			}
			if got := s.Faces[clock.Red]; got != tt.want {
				t.Errorf("red face = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestFlag_C3_MovedButNotPressed: the last move of the period made on the
// board but pressed after the deadline still loses on time (000 ch.7 §1 3).
func TestFlag_C3_MovedButNotPressed(t *testing.T) {
	s, now, err := playRed(preset(t, "60/30+10/10"), repeat(29, 2*mn))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := s.Deadline()
	if want := now + 2*mn; !ok || d != want {
		t.Fatalf("Deadline() = %d, %v; want %d", d, ok, want)
	}
	if _, _, flagged := s.Flagged(d - 1); flagged {
		t.Error("flagged a millisecond before the deadline")
	}
	// The 30th move is on the board at d-1 but the press comes at d+500.
	after, err := s.Press(d + 500)
	var fe *clock.FlagError
	if !errors.As(err, &fe) || fe.Side != clock.Red || fe.At != d {
		t.Fatalf("Press after deadline = %v, want red's flag at %d", err, d)
	}
	if !reflect.DeepEqual(after, s) {
		t.Error("a refused press changed the state")
	}
	if got := s.Read(d + 500); !got.Faces[clock.Red].Flagged || got.Faces[clock.Red].RemainingMs != 0 {
		t.Errorf("Read after deadline = %+v, want red flagged at 0", got.Faces[clock.Red])
	}
}

func TestDeadline_C2_WorldSpansTheHour(t *testing.T) {
	s := clock.New(preset(t, "world")).Start(clock.Red, 1000)
	if d, ok := s.Deadline(); !ok || d != 1000+70*mn {
		t.Errorf("Deadline() = %d, %v; want %d", d, ok, 1000+70*mn)
	}
	if _, _, ok := s.Flagged(1000 + 70*mn - 1); ok {
		t.Error("flagged inside the second period")
	}
	r := s.Read(1000 + 65*mn)
	if f := r.Faces[clock.Red]; f.Period != 1 || f.MovesDue != 10 || f.RemainingMs != 5*mn {
		t.Errorf("after 65 mn: %+v, want period 1, 10 due, 5 mn left", f)
	}
}

func TestSuddenDeath_C2(t *testing.T) {
	c, err := clock.NewControl([]clock.Period{{Moves: 0, Ms: 5 * mn}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, clock.SuddenDeath(5*mn)) {
		t.Errorf("NewControl = %+v, want SuddenDeath", c)
	}
	s, _, err := playRed(c, repeat(100, 2999))
	if err != nil {
		t.Fatalf("100 moves in 299.9 s: %v", err)
	}
	if got := s.Remaining(clock.Red, 0); got != 100 {
		t.Errorf("Remaining = %d, want 100", got)
	}
	if s.MovesDue(clock.Red, 0) != 0 {
		t.Error("sudden death has moves due")
	}
	_, _, err = playRed(c, repeat(101, 2999))
	if _, ok := err.(*clock.FlagError); !ok {
		t.Errorf("101st move = %v, want a flag", err)
	}
}

func TestIncrement_C2_Fischer(t *testing.T) {
	c, err := clock.NewControl([]clock.Period{{Moves: 0, Ms: 3 * mn}}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	// 200 moves of 2.5 s each: 500 s used, 400 s of increments, 180 s base.
	s, _, err := playRed(c, repeat(200, 2500))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Faces[clock.Red].RemainingMs, int64(180000-500000+400000); got != want {
		t.Errorf("remaining = %d, want %d", got, want)
	}
	if got, want := s.Faces[clock.Black].RemainingMs, int64(180000+400000); got != want {
		t.Errorf("black (instant moves) remaining = %d, want %d", got, want)
	}
}

func TestClock_C1_OnlyTheMoverRuns(t *testing.T) {
	s := clock.New(preset(t, "60/30+10/10"))
	if _, err := s.Press(5); !errors.Is(err, clock.ErrNotRunning) {
		t.Errorf("Press before start = %v, want ErrNotRunning", err)
	}
	s = s.Start(clock.Red, 0)
	if s.Remaining(clock.Black, 10*mn) != 60*mn {
		t.Error("black's clock ran during red's turn")
	}
	s, _ = s.Press(10 * mn)
	if s.Running != clock.Black || s.Remaining(clock.Red, 30*mn) != 50*mn || s.Remaining(clock.Black, 30*mn) != 40*mn {
		t.Errorf("after red's press: running %v, red %d, black %d", s.Running, s.Remaining(clock.Red, 30*mn), s.Remaining(clock.Black, 30*mn))
	}
}

func TestStop_G6_FreezesTheClocks(t *testing.T) {
	s := clock.New(preset(t, "60/30+10/10")).Start(clock.Red, 0)
	s = s.Stop(5 * mn)
	if s.Running != clock.None {
		t.Fatalf("Running = %v after Stop", s.Running)
	}
	if got := s.Remaining(clock.Red, 500*mn); got != 55*mn {
		t.Errorf("stopped red after 500 mn = %d, want %d", got, 55*mn)
	}
	if _, _, ok := s.Flagged(500 * mn); ok {
		t.Error("a stopped clock flagged")
	}
	s = s.Start(clock.Red, 600*mn)
	if got := s.Remaining(clock.Red, 601*mn); got != 54*mn {
		t.Errorf("restarted red = %d, want %d", got, 54*mn)
	}
	if s.Stop(700 * mn).Stop(800 * mn).Faces[clock.Red].RemainingMs != s.Stop(700 * mn).Faces[clock.Red].RemainingMs {
		t.Error("a second Stop charged time")
	}
}

func TestCorrect_C5(t *testing.T) {
	s := clock.New(preset(t, "60/30+10/10")).Start(clock.Red, 0)
	s = s.Correct(10*mn, clock.Black, 45*mn)
	if got := s.Remaining(clock.Red, 20*mn); got != 40*mn {
		t.Errorf("running red after correction = %d, want %d", got, 40*mn)
	}
	if got := s.Remaining(clock.Black, 20*mn); got != 45*mn {
		t.Errorf("corrected black = %d, want %d", got, 45*mn)
	}
	s = s.Correct(20*mn, clock.Red, 60*mn)
	if got := s.Remaining(clock.Red, 21*mn); got != 59*mn {
		t.Errorf("corrected running red a minute later = %d, want %d", got, 59*mn)
	}
	// A correction to zero on a stopped face flags it.
	s = s.Correct(21*mn, clock.Black, 0)
	if side, _, ok := s.Flagged(21 * mn); !ok || side != clock.Black {
		t.Errorf("Flagged after correcting black to 0 = %v, %v", side, ok)
	}
}

func TestLateArrival_C6_ClockRunsFromRoundStart(t *testing.T) {
	roundStart := int64(1_000_000)
	s := clock.New(preset(t, "60/30+10/10")).Start(clock.Red, roundStart)
	// Red sits down 12 minutes late and moves a minute later.
	s, err := s.Press(roundStart + 13*mn)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Faces[clock.Red].RemainingMs; got != 47*mn {
		t.Errorf("late red remaining = %d, want %d", got, 47*mn)
	}
}

func TestClock_C4_SkewedNowGivesNoTimeBack(t *testing.T) {
	s := clock.New(preset(t, "60/30+10/10")).Start(clock.Red, 10*mn)
	if got := s.Remaining(clock.Red, 9*mn); got != 60*mn {
		t.Errorf("Remaining before Since = %d, want %d", got, 60*mn)
	}
}

func TestValidate_C2(t *testing.T) {
	tests := []struct {
		name      string
		periods   []clock.Period
		increment int64
		field     string
	}{
		{"ZeroMs", []clock.Period{{Moves: 40, Ms: 0}}, 0, "periods[0].ms"},
		{"NegativeMoves", []clock.Period{{Moves: 40, Ms: 1000}, {Moves: -1, Ms: 1000}}, 0, "periods[1].moves"},
		{"TooManyMoves", []clock.Period{{Moves: clock.MaxMoves + 1, Ms: 1000}}, 0, "periods[0].moves"},
		{"TooLong", []clock.Period{{Moves: 1, Ms: clock.MaxPeriodMs + 1}}, 0, "periods[0].ms"},
		{"TooManyPeriods", repeatPeriods(clock.MaxPeriods + 1), 0, "periods"},
		{"NegativeIncrement", []clock.Period{{Moves: 0, Ms: 1000}}, -1, "incrementMs"},
		{"HugeIncrement", []clock.Period{{Moves: 0, Ms: 1000}}, clock.MaxIncrement + 1, "incrementMs"},
		{"UntimedIncrement", nil, 1000, "incrementMs"},
		{"Valid", []clock.Period{{Moves: 40, Ms: 1000}, {Moves: 0, Ms: 1000}}, 5, ""},
		{"ValidUntimed", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := clock.NewControl(tt.periods, tt.increment)
			var ce *clock.ControlError
			switch {
			case tt.field == "" && err != nil:
				t.Errorf("NewControl = %v, want ok", err)
			case tt.field != "" && (!errors.As(err, &ce) || ce.Field != tt.field || ce.Rule != "C-2"):
				t.Errorf("NewControl = %v, want an error on %s (C-2)", err, tt.field)
			}
		})
	}
}

func repeatPeriods(n int) []clock.Period {
	out := make([]clock.Period, n)
	for i := range out {
		out[i] = clock.Period{Moves: 10, Ms: mn}
	}
	return out
}

// At the exact end of the world preset's first hour the running face reads
// the second period's full ten minutes (C-2): the hour flows into the next
// period at zero, not only below it.
func TestFace_ExactPeriodBoundary(t *testing.T) {
	const start = 1_000_000
	s := clock.New(preset(t, "world")).Start(clock.Red, start)
	cases := []struct {
		at   int64
		want clock.Face
	}{
		{start + 60*mn - 1, clock.Face{RemainingMs: 1, UsedMs: 60*mn - 1}},
		{start + 60*mn, clock.Face{RemainingMs: 10 * mn, UsedMs: 60 * mn, Period: 1}},
		{start + 60*mn + 1, clock.Face{RemainingMs: 10*mn - 1, UsedMs: 60*mn + 1, Period: 1}},
	}
	for _, c := range cases {
		if got := s.Face(clock.Red, c.at); got != c.want {
			t.Errorf("face at start+%d ms = %+v, want %+v", c.at-start, got, c.want)
		}
		if got := s.MovesDue(clock.Red, c.at); got != 10*c.want.Period {
			t.Errorf("moves due at start+%d ms = %d, want %d", c.at-start, got, 10*c.want.Period)
		}
	}
}
