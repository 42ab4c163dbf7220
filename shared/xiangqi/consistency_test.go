package xiangqi_test

import (
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// randomGames plays seeded random games from the start and from a few perft
// positions and calls visit on every position reached.
func randomGames(t *testing.T, games, plies int, visit func(p *xiangqi.Position)) {
	t.Helper()
	starts := []string{
		xiangqi.StartFEN,
		"1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
		"2bak4/4a1R1C/2n1b2cn/p1p1pNp2/3NP3p/2P3P2/PR6P/4C3B/3rA4/2B1KA1rc w - - 0 1",
		"CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < games; g++ {
		p := mustFEN(t, starts[g%len(starts)])
		for i := 0; i < plies; i++ {
			visit(p)
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if err := p.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestIsLegalAgreesWithLegalMoves checks the rule-by-rule checker behind Play
// against the generator on every one of the 8100 from-to pairs.
func TestIsLegalAgreesWithLegalMoves(t *testing.T) {
	randomGames(t, 8, 60, func(p *xiangqi.Position) {
		legal := map[xiangqi.Move]bool{}
		for _, m := range p.LegalMoves() {
			if legal[m] {
				t.Fatalf("%s: %v generated twice", p.FEN(), m)
			}
			legal[m] = true
		}
		for from := xiangqi.Square(0); from < 90; from++ {
			for to := xiangqi.Square(0); to < 90; to++ {
				m := xiangqi.NewMove(from, to)
				if got := p.IsLegal(m); got != legal[m] {
					err := p.Clone().Play(m)
					t.Fatalf("%s: IsLegal(%v) = %v, generator says %v (%v)", p.FEN(), m, got, legal[m], err)
				}
			}
		}
	})
}

func TestMakeUnmakeRestores(t *testing.T) {
	randomGames(t, 20, 120, func(p *xiangqi.Position) {
		fen, hash := p.FEN(), p.Hash()
		if want := mustFEN(t, fen).Hash(); hash != want {
			t.Fatalf("%s: incremental hash %x, from scratch %x", fen, hash, want)
		}
		for _, m := range p.LegalMoves() {
			u := p.MakeMove(m)
			if after := p.FEN(); mustFEN(t, after).Hash() != p.Hash() {
				t.Fatalf("%v: hash after MakeMove differs from %s", m, after)
			}
			p.UnmakeMove(m, u)
			if p.FEN() != fen || p.Hash() != hash {
				t.Fatalf("%v: make/unmake gave %s %x, want %s %x", m, p.FEN(), p.Hash(), fen, hash)
			}
		}
	})
}

func TestNoAllocations(t *testing.T) {
	p := xiangqi.NewPosition()
	buf := make([]xiangqi.Move, 0, 128)
	m := mv(t, "h2e2")
	allocs := testing.AllocsPerRun(100, func() {
		buf = p.AppendLegalMoves(buf[:0])
		u := p.MakeMove(m)
		p.UnmakeMove(m, u)
		p.Perft(2)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

func TestIsLegalDoesNotAllocate(t *testing.T) {
	p := xiangqi.NewPosition()
	moves := p.LegalMoves()
	allocs := testing.AllocsPerRun(20, func() {
		for _, m := range moves {
			if !p.IsLegal(m) {
				t.Fatalf("%v not legal", m)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("IsLegal: %v allocations per run, want 0", allocs)
	}
}

// The zero Position is not a position, but querying it must not hang.
func TestZeroPosition(t *testing.T) {
	var p xiangqi.Position
	if len(p.LegalMoves()) != 0 || p.InCheck() || p.IsLegal(mv(t, "e0e1")) || p.Perft(2) != 0 {
		t.Error("zero Position reports moves or check")
	}
}
