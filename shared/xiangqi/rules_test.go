package xiangqi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// mv parses a lowercase ICCS move such as "h2e2" (test helper; the real
// parser lives in shared/notation).
func mv(t testing.TB, s string) xiangqi.Move {
	t.Helper()
	if len(s) != 4 {
		t.Fatalf("bad move %q", s)
	}
	sq := func(f, r byte) xiangqi.Square {
		if f < 'a' || f > 'i' || r < '0' || r > '9' {
			t.Fatalf("bad move %q", s)
		}
		return xiangqi.NewSquare(int(f-'a'), int(r-'0'))
	}
	return xiangqi.NewMove(sq(s[0], s[1]), sq(s[2], s[3]))
}

func mustFEN(t testing.TB, fen string) *xiangqi.Position {
	t.Helper()
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// moveRuleCases pairs a position and a move with the rule it breaks ("" for
// legal) and a fragment of the reason.
var moveRuleCases = []struct {
	name, fen, move, rule, reason string
}{
	{"B3_GeneralStep", "3k5/9/9/9/9/9/9/9/9/4K4 w", "e0e1", "", ""},
	{"B3_GeneralDiagonal", "3k5/9/9/9/9/9/9/9/9/4K4 w", "e0d1", "B-3", "general at e0 moves one point orthogonally"},
	{"B3_GeneralLeavesPalace", "4k4/9/9/9/9/9/9/9/9/3K5 w", "d0c0", "B-3", "general at d0 may not leave the palace"},
	{"B3_FlyingGeneralByGeneral", "4k4/9/9/9/9/9/9/9/9/3K5 w", "d0e0", "B-3", "generals would face each other"},
	{"B3_FlyingGeneralByScreen", "4k4/9/9/9/4C4/9/9/9/9/4K4 w", "e5a5", "B-3", "generals would face each other"},
	{"B4_AdvisorDiagonal", xiangqi.StartFEN, "d0e1", "", ""},
	{"B4_AdvisorStraight", xiangqi.StartFEN, "d0d1", "B-4", "advisor at d0 moves one point diagonally"},
	{"B4_AdvisorLeavesPalace", "3k5/9/9/9/9/9/9/3A5/9/4K4 w", "d2c3", "B-4", "may not leave the palace"},
	{"B5_ElephantOpenEye", xiangqi.StartFEN, "c0e2", "", ""},
	{"B5_ElephantEyeBlocked", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3N5/R1BAKABNR w", "c0e2", "B-5", "elephant at c0 is blocked at d1"},
	{"B5_ElephantCrossesRiver", "4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4e6", "B-5", "may not cross the river"},
	{"B5_ElephantOneStep", "4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4d3", "B-5", "exactly two points diagonally"},
	{"B6_HorseLegFree", xiangqi.StartFEN, "h0g2", "", ""},
	{"B6_HorseLegBlocked", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/7C1/RNBAKABNR w", "h0g2", "B-6", "horse at h0 is blocked at h1"},
	{"B6_HorseLegBlockedSideways", "4k4/9/9/9/9/9/9/9/3KN4/9 w", "e1c2", "B-6", "horse at e1 is blocked at d1"},
	{"B6_HorseOtherLegFree", "4k4/9/9/9/9/9/9/9/3KN4/9 w", "e1g2", "", ""},
	{"B6_HorseShape", xiangqi.StartFEN, "h0g1", "B-6", "one point orthogonally then one diagonally"},
	{"B7_ChariotSlides", xiangqi.StartFEN, "a0a2", "", ""},
	{"B7_ChariotJumps", xiangqi.StartFEN, "a0a4", "B-7", "cannot jump over pieces"},
	{"B8_CannonSlides", xiangqi.StartFEN, "h2e2", "", ""},
	{"B8_CannonCapturesOverScreen", xiangqi.StartFEN, "b2b9", "", ""},
	{"B8_CannonCapturesWithoutScreen", xiangqi.StartFEN, "b2b7", "B-8", "found 0"},
	{"B8_CannonTwoScreens", "3k5/9/9/9/9/9/C1p1p1p2/9/9/4K4 w", "a3g3", "B-8", "found 2"},
	{"B8_CannonJumpsWithoutCapture", xiangqi.StartFEN, "b2b8", "B-8", "cannot jump without capturing"},
	{"B9_SoldierForward", xiangqi.StartFEN, "e3e4", "", ""},
	{"B9_SoldierSidewaysBeforeRiver", xiangqi.StartFEN, "e3d3", "B-9", "sideways only after crossing the river"},
	{"B9_SoldierSidewaysAfterRiver", "4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e5d5", "", ""},
	{"B9_SoldierBackwards", "4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e5e4", "B-9", "never moves backwards"},
	{"B9_BlackSoldierSidewaysAfterRiver", "3k5/9/9/9/9/4p4/9/9/9/4K4 b", "e4f4", "", ""},
	{"B9_BlackSoldierBackwards", "3k5/9/9/9/9/4p4/9/9/9/4K4 b", "e4e5", "B-9", "never moves backwards"},
	{"B10_CaptureOwn", xiangqi.StartFEN, "a0a3", "B-10", "cannot capture its own soldier"},
	{"B10_PinnedHorse", "3k5/4r4/9/9/9/9/9/9/4N4/4K4 w", "e1d3", "B-10", "leaves the general in check"},
	{"B10_NewCannonScreen", "3k5/9/4c4/9/9/9/R8/9/9/4K4 w", "a3e3", "B-10", "leaves the general in check"},
	{"B10_IgnoresCheck", "4k4/9/9/9/3r5/9/5R3/9/9/3K5 w", "f3f4", "B-10", "leaves the general in check"},
	{"B10_AnswersCheck", "4k4/9/9/9/3r5/9/5R3/9/9/3K5 w", "f3d3", "", ""},
	{"B10_GeneralStaysOnFile", "4k4/9/9/9/3r5/9/5R3/9/9/3K5 w", "d0d1", "B-10", "leaves the general in check"},
	{"B3_GeneralStepsIntoFacing", "4k4/9/9/9/3r5/9/5R3/9/9/3K5 w", "d0e0", "B-3", "generals would face each other"},
	{"B1_EmptyPoint", xiangqi.StartFEN, "e4e5", "B-1", "no piece at e4"},
	{"B1_WrongSide", xiangqi.StartFEN, "e6e5", "B-1", "black's; red is to move"},
}

func TestPlay_RuleCases(t *testing.T) {
	for _, tc := range moveRuleCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m := mv(t, tc.move)
			before := p.FEN()
			legal := p.IsLegal(m)
			inList := false
			for _, lm := range p.LegalMoves() {
				inList = inList || lm == m
			}
			err := p.Play(m)
			if tc.rule == "" {
				if err != nil || !legal || !inList {
					t.Fatalf("%s: Play = %v, IsLegal = %v, in LegalMoves = %v; want legal", tc.move, err, legal, inList)
				}
				return
			}
			if legal || inList {
				t.Errorf("%s: IsLegal = %v, in LegalMoves = %v; want illegal", tc.move, legal, inList)
			}
			var ie *xiangqi.IllegalMoveError
			if !errors.As(err, &ie) || !errors.Is(err, xiangqi.ErrIllegalMove) {
				t.Fatalf("%s: Play = %v, want *IllegalMoveError", tc.move, err)
			}
			if ie.Rule != tc.rule || !strings.Contains(ie.Reason, tc.reason) {
				t.Errorf("%s: got %s %q, want %s containing %q", tc.move, ie.Rule, ie.Reason, tc.rule, tc.reason)
			}
			// G-2: only B-10's kinds (own capture, own general in check, generals
			// facing) count against the mover; a misshapen move is only refused.
			if want := tc.rule == "B-10" || tc.reason == "generals would face each other"; ie.SelfHarm != want {
				t.Errorf("%s: SelfHarm = %v, want %v", tc.move, ie.SelfHarm, want)
			}
			if got := p.FEN(); got != before {
				t.Errorf("illegal Play changed the position: %s, want %s", got, before)
			}
		})
	}
}

var fenRejectCases = []struct {
	name, fen, rule, reason string
}{
	{"B3_GeneralsFace", "4k4/9/9/9/9/9/9/9/9/4K4 w", "B-3", "generals face each other"},
	{"B2_NoBlackGeneral", "9/9/9/9/9/9/9/9/9/4K4 w", "B-2", "black has no general"},
	{"B2_TwoGenerals", "3kk4/9/9/9/9/9/9/9/9/5K3 w", "B-2", "black has more than one general"},
	{"B3_GeneralOutsidePalace", "4k4/9/9/9/9/9/9/9/9/K8 w", "B-3", "red general on a0 is outside its palace"},
	{"B3_BlackGeneralOutsidePalace", "9/9/9/4k4/9/9/9/9/9/3K5 w", "B-3", "black general on e6"},
	{"B4_AdvisorOffDiagonal", "4k4/9/9/9/9/9/9/9/9/3KA4 w", "B-4", "red advisor on e0"},
	{"B5_ElephantOffPoint", "4k4/9/9/9/9/9/9/9/9/3KB4 w", "B-5", "red elephant on e0"},
	{"B5_ElephantAcrossRiver", "4k4/9/9/2B6/9/9/9/9/9/3K5 w", "B-5", "red elephant on c6"},
	{"B9_RedSoldierBehindStart", "4k4/9/9/9/9/9/9/4P4/9/3K5 w", "B-9", "red soldier on e2"},
	{"B9_BlackSoldierBehindStart", "4k4/9/4p4/9/9/9/9/9/9/3K5 w", "B-9", "black soldier on e7"},
	{"B9_RedSoldierOffFileBeforeRiver", "4k4/9/9/9/9/3P5/9/9/9/3K5 w", "B-9", "red soldier on d4 cannot have left its file"},
	{"B9_BlackSoldierOffFileBeforeRiver", "4k4/9/9/1p7/9/9/9/9/9/3K5 w", "B-9", "black soldier on b6 cannot have left its file"},
	{"B2_ThreeChariots", "4k4/9/9/9/9/9/9/9/9/RRRK5 w", "B-2", "red has more than 2 chariots"},
	{"B2_SixSoldiers", "4k4/9/9/9/9/pppppp3/9/9/9/3K5 w", "B-2", "black has more than 5 soldiers"},
	{"B10_SideNotToMoveInCheck", "4k4/9/9/9/9/4R4/9/9/9/3K5 w", "B-10", "black is in check but it is red's turn"},
	{"Syntax_NineRanks", "4k4/9/9/9/9/9/9/9/3K5 w", "B-1", "want 10 ranks"},
	{"Syntax_TenFiles", "4k4/9/9/9/9/9/91/9/9/3K5 w", "B-1", "has 10 files"},
	{"Syntax_EightFiles", "4k4/9/9/9/9/9/8/9/9/3K5 w", "B-1", "has 8 files"},
	{"Syntax_UnknownLetter", "4k4/9/9/9/9/9/4x4/9/9/3K5 w", "", "unknown piece letter"},
	{"Syntax_Zero", "4k4/9/9/9/9/9/0/9/9/3K5 w", "", "unknown piece letter"},
	{"Syntax_NoSide", "4k4/9/9/9/9/9/9/9/9/3K5", "", "at least the board and the side"},
	{"Syntax_BadSide", "4k4/9/9/9/9/9/9/9/9/3K5 x", "", "side to move"},
	{"Syntax_NegativeHalfmove", "4k4/9/9/9/9/9/9/9/9/3K5 w - - -1 1", "", "halfmove clock"},
	{"Syntax_ZeroFullmove", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0", "", "fullmove number"},
	{"Syntax_Castling", "4k4/9/9/9/9/9/9/9/9/3K5 w KQ - 0 1", "", "halfmove clock"},
	{"Syntax_ExtraField", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 x", "", "at most 6 fields"},
}

func TestParseFEN_Rejects(t *testing.T) {
	for _, tc := range fenRejectCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := xiangqi.ParseFEN(tc.fen)
			var fe *xiangqi.FENError
			if !errors.As(err, &fe) || !errors.Is(err, xiangqi.ErrInvalidFEN) {
				t.Fatalf("ParseFEN = %v, %v; want *FENError", p, err)
			}
			if fe.Rule != tc.rule || !strings.Contains(fe.Reason, tc.reason) {
				t.Errorf("got %s %q, want %s containing %q", fe.Rule, fe.Reason, tc.rule, tc.reason)
			}
			if tc.rule != "" && !strings.Contains(err.Error(), "("+tc.rule+")") {
				t.Errorf("Error() = %q does not name %s", err, tc.rule)
			}
		})
	}
}

func TestParseFEN_Accepts(t *testing.T) {
	cases := []struct{ in, want string }{
		{xiangqi.StartFEN, xiangqi.StartFEN},
		{"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r", xiangqi.StartFEN},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -", xiangqi.StartFEN},
		{"4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 12 40", "4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 12 40"},
		{"4k4/9/9/9/9/4R4/9/9/9/3K5 b 7", "4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 7 1"},
		{"4k4/9/9/9/9/4R4/9/9/9/3K5\tb  -  -  3  9", "4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 3 9"},
	}
	for _, tc := range cases {
		p := mustFEN(t, tc.in)
		if got := p.FEN(); got != tc.want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tc.in, got, tc.want)
		}
	}
	p := mustFEN(t, "4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 12 40")
	if p.Ply() != 79 || p.NoCaptureCount() != 12 || p.SideToMove() != xiangqi.Black || !p.InCheck() {
		t.Errorf("Ply %d NoCapture %d side %v check %v, want 79 12 black true", p.Ply(), p.NoCaptureCount(), p.SideToMove(), p.InCheck())
	}
	if got := p.PieceAt(xiangqi.NewSquare(4, 4)); got != xiangqi.MakePiece(xiangqi.Red, xiangqi.Chariot) {
		t.Errorf("PieceAt(e4) = %v, want red chariot", got)
	}
}

// G-1: both checkmate and stalemate end the game against the side to move.
func TestStatus_G1(t *testing.T) {
	cases := []struct {
		fen  string
		want xiangqi.Status
	}{
		{xiangqi.StartFEN, xiangqi.Ongoing},
		{"3k5/9/9/9/9/9/9/9/9/3RK4 b", xiangqi.Checkmate},
		{"9/3k5/9/3R5/9/9/9/9/9/4K4 b", xiangqi.Checkmate},
		{"4k4/5P3/9/9/9/9/9/9/9/3K5 b", xiangqi.Stalemate},
		{"4k4/9/9/9/3r5/9/5R3/9/9/3K5 w", xiangqi.Ongoing},
	}
	for _, tc := range cases {
		if got := mustFEN(t, tc.fen).Status(); got != tc.want {
			t.Errorf("%s: Status = %v, want %v", tc.fen, got, tc.want)
		}
	}
}

func TestPlay_CountersAndHash(t *testing.T) {
	p := xiangqi.NewPosition()
	for _, s := range []string{"h2e2", "h7e7", "e2e6"} { // the last captures a soldier
		if err := p.Play(mv(t, s)); err != nil {
			t.Fatal(err)
		}
	}
	if p.Ply() != 3 || p.NoCaptureCount() != 0 || p.SideToMove() != xiangqi.Black {
		t.Errorf("ply %d noCapture %d side %v, want 3 0 black", p.Ply(), p.NoCaptureCount(), p.SideToMove())
	}
	if p.Hash() != mustFEN(t, p.FEN()).Hash() {
		t.Error("incremental hash differs from the hash of the same FEN")
	}
	// Transpositions reach the same hash.
	a, b := xiangqi.NewPosition(), xiangqi.NewPosition()
	for _, s := range []string{"h2e2", "h9g7", "b0c2"} {
		a.Play(mv(t, s))
	}
	for _, s := range []string{"b0c2", "h9g7", "h2e2"} {
		b.Play(mv(t, s))
	}
	if a.Hash() != b.Hash() || a.FEN() != b.FEN() {
		t.Errorf("transposition: %x %s vs %x %s", a.Hash(), a.FEN(), b.Hash(), b.FEN())
	}
	if a.Hash() == xiangqi.NewPosition().Hash() {
		t.Error("hash did not change")
	}
}
