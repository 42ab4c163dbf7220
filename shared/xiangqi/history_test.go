package xiangqi_test

import (
	"reflect"
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

func playAll(t *testing.T, h *xiangqi.History, moves ...string) {
	t.Helper()
	for _, s := range moves {
		if err := h.Play(mv(t, s)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// occurrences counts how often the current position has stood on the board.
func occurrences(h *xiangqi.History) int {
	cur := h.Position().Hash()
	n := 0
	if h.Start().Hash() == cur {
		n++
	}
	for i := 0; i < h.Len(); i++ {
		if h.Entry(i).Hash == cur {
			n++
		}
	}
	return n
}

// G-6: a red chariot checks from a9 and a8 while the black general shuffles
// between e9 and e8; every red move checks, no black move does.
func TestRepetition_G6_PerpetualCheck(t *testing.T) {
	h := xiangqi.NewHistory(mustFEN(t, "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"))
	playAll(t, h, "a8a9") // first occurrence of the cycle's position
	if r := h.Repetition(); r.Cycles != 0 || r.CycleLength != 0 {
		t.Fatalf("new position: %+v, want no repetition", r)
	}
	if err := h.Play(mv(t, "e9d9")); err == nil || h.Len() != 1 {
		t.Fatalf("e9d9 into the chariot's rank: err %v, Len %d; want an error and no change", err, h.Len())
	}
	if e := h.Entry(0); e.Piece != xiangqi.MakePiece(xiangqi.Red, xiangqi.Chariot) || e.Captured != xiangqi.NoPiece {
		t.Errorf("Entry(0) = %+v, want a red chariot capturing nothing", e)
	}
	if e := h.Entry(0); !e.Check || len(e.Attacked) != 0 {
		t.Errorf("a8a9: Check %v Attacked %v, want check and no attacked pieces", e.Check, e.Attacked)
	}
	cycle := []string{"e9e8", "a9a8", "e8e9", "a8a9"}
	for k := 1; k <= 6; k++ {
		playAll(t, h, cycle...)
		r := h.Repetition()
		if r.Cycles != k || r.CycleLength != 4 || occurrences(h) != k+1 {
			t.Fatalf("after %d cycles: Cycles %d CycleLength %d occurrences %d", k, r.Cycles, r.CycleLength, occurrences(h))
		}
		if r.Since != 0 {
			t.Errorf("Since = %d, want 0 (the start is part of the period)", r.Since)
		}
		if !r.PerpetualCheck[xiangqi.Red] || r.PerpetualCheck[xiangqi.Black] {
			t.Errorf("PerpetualCheck = %v, want [true false]", r.PerpetualCheck)
		}
		if r.PerpetualChase[xiangqi.Red] || r.PerpetualChase[xiangqi.Black] {
			t.Errorf("PerpetualChase = %v, want none", r.PerpetualChase)
		}
	}
	// 5 cycles: the scribe's warning; the position has been seen 6 times.
	// A different move breaks the cycle and the next position is new.
	playAll(t, h, "e9e8", "a9b9")
	if r := h.Repetition(); r.Cycles != 0 {
		t.Errorf("after leaving the cycle: Cycles %d, want 0", r.Cycles)
	}
	if h.NoCaptureCount() != h.Len() {
		t.Errorf("NoCaptureCount %d, want %d", h.NoCaptureCount(), h.Len())
	}
}

// G-6: a red chariot chases a black horse that flees between g7 and h5; the
// chariot newly attacks the horse with every move and gives no check.
func TestRepetition_G6_PerpetualChase(t *testing.T) {
	h := xiangqi.NewHistory(mustFEN(t, "4k4/9/6n2/9/R8/9/9/9/9/3K5 w - - 0 1"))
	playAll(t, h, "a5a7", "g7h5", "a7a5", "h5g7", "a5a7", "g7h5", "a7a5", "h5g7", "a5a7")
	if got, want := h.Entry(0).Attacked, []xiangqi.Square{xiangqi.NewSquare(6, 7)}; !reflect.DeepEqual(got, want) {
		t.Errorf("a5a7 Attacked = %v, want %v", got, want)
	}
	if got := h.Entry(1).Attacked; len(got) != 0 {
		t.Errorf("g7h5 Attacked = %v, want none", got)
	}
	if got := h.Moves(); len(got) != 9 || got[1] != mv(t, "g7h5") {
		t.Errorf("Moves() = %v", got)
	}
	r := h.Repetition()
	if r.Cycles != 2 || r.CycleLength != 4 || r.Since != 0 {
		t.Fatalf("Cycles %d CycleLength %d Since %d, want 2 4 0", r.Cycles, r.CycleLength, r.Since)
	}
	if !r.PerpetualChase[xiangqi.Red] || r.PerpetualChase[xiangqi.Black] {
		t.Errorf("PerpetualChase = %v, want [true false]", r.PerpetualChase)
	}
	if want := []xiangqi.Square{xiangqi.NewSquare(6, 7)}; !reflect.DeepEqual(r.Chased[xiangqi.Red], want) {
		t.Errorf("Chased[red] = %v, want %v", r.Chased[xiangqi.Red], want)
	}
	if r.PerpetualCheck[xiangqi.Red] || r.PerpetualCheck[xiangqi.Black] {
		t.Errorf("PerpetualCheck = %v, want none", r.PerpetualCheck)
	}
}

// G-6: a chariot that attacks a different piece with each move (the horse
// from a7, the cannon from a5) is not chasing one piece.
func TestRepetition_G6_ChaseOfDifferentPieces(t *testing.T) {
	h := xiangqi.NewHistory(mustFEN(t, "4k4/9/6n2/9/R5c2/9/9/9/9/3K5 w - - 0 1"))
	playAll(t, h, "a5a7", "e9e8", "a7a5", "e8e9", "a5a7", "e9e8", "a7a5", "e8e9", "a5a7")
	if got := h.Entry(2).Attacked; !reflect.DeepEqual(got, []xiangqi.Square{xiangqi.NewSquare(6, 5)}) {
		t.Errorf("a7a5 Attacked = %v, want [g5]", got)
	}
	r := h.Repetition()
	if r.Cycles != 2 || r.CycleLength != 4 {
		t.Fatalf("Cycles %d CycleLength %d, want 2 4", r.Cycles, r.CycleLength)
	}
	if r.PerpetualChase != [2]bool{} || r.PerpetualCheck != [2]bool{} {
		t.Errorf("PerpetualChase %v PerpetualCheck %v, want none", r.PerpetualChase, r.PerpetualCheck)
	}
}

// G-6: a position that comes back after unrelated play counts from 1 again,
// because only the periodic stretch counts.
func TestRepetition_G6_RestartsAfterOtherPlay(t *testing.T) {
	h := xiangqi.NewHistory(xiangqi.NewPosition())
	playAll(t, h, "h0g2", "h9g7", "g2h0", "g7h9") // back to the start: 1 cycle
	if r := h.Repetition(); r.Cycles != 1 || r.CycleLength != 4 {
		t.Fatalf("Cycles %d CycleLength %d, want 1 4", r.Cycles, r.CycleLength)
	}
	playAll(t, h, "b0c2", "b9c7", "c2b0", "c7b9") // a different 4-ply loop
	r := h.Repetition()
	if r.Cycles != 1 || r.CycleLength != 4 || r.Since != 4 || occurrences(h) != 3 {
		t.Errorf("Cycles %d CycleLength %d Since %d occurrences %d, want 1 4 4 3", r.Cycles, r.CycleLength, r.Since, occurrences(h))
	}
}

func TestMaterial_G5(t *testing.T) {
	cases := []struct {
		fen      string
		red, blk bool
		deadPos  bool
	}{
		{xiangqi.StartFEN, true, true, false},
		{"3k5/4a4/4b4/9/9/9/9/4B4/4A4/4K4 w", false, false, true},
		{"3k5/9/9/9/5P3/9/9/9/4A4/4K4 w", true, false, false},
		{"3k5/9/9/9/4p4/9/9/9/9/4K4 w", false, true, false},
		{"3k5/9/9/9/9/9/9/9/9/3CK4 w", true, false, false},
		{"3k5/9/9/9/9/9/9/9/9/3NK4 w", true, false, false},
	}
	for _, tc := range cases {
		p, err := xiangqi.ParseFEN(tc.fen)
		if err != nil {
			t.Errorf("%s: %v", tc.fen, err)
			continue
		}
		if p.HasMatingMaterial(xiangqi.Red) != tc.red || p.HasMatingMaterial(xiangqi.Black) != tc.blk || p.DeadPosition() != tc.deadPos {
			t.Errorf("%s: red %v black %v dead %v, want %v %v %v", tc.fen,
				p.HasMatingMaterial(xiangqi.Red), p.HasMatingMaterial(xiangqi.Black), p.DeadPosition(), tc.red, tc.blk, tc.deadPos)
		}
	}
}
