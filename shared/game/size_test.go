package game_test

import (
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// itemOverhead is what the store adds around the packed game: key and
// attribute names, the game id, the tournament link and a version number. It
// is a generous estimate of the lead's item layout.
const itemOverhead = 200

// randomGame plays plies legal moves picked by a seeded PRNG, never one that
// ends the game at once, each pressed after 2–40 s, and returns the game and
// the packed size after every ply. Captures are taken only half as often as
// they come up, so the game keeps material like a real one.
func randomGame(t testing.TB, plies int) (*game.Game, []int, int64) {
	g := newGame(t, game.Setup{Control: preset(t, "90/40+15/10")})
	rng := rand.New(rand.NewPCG(4, 150))
	now := t0
	var sizes []int
	for ply := 0; ply < plies; ply++ {
		p := g.Position()
		var candidates []xiangqi.Move
		for _, m := range p.LegalMoves() {
			q := p.Clone()
			capture := q.Captured(m) != xiangqi.NoPiece
			if q.Play(m) != nil || q.Status() != xiangqi.Ongoing || q.DeadPosition() {
				continue
			}
			if capture && rng.IntN(2) == 0 {
				continue
			}
			candidates = append(candidates, m)
		}
		if len(candidates) == 0 {
			t.Fatalf("no quiet continuation at ply %d", ply)
		}
		m := candidates[rng.IntN(len(candidates))]
		now += 2000 + rng.Int64N(38000)
		side := game.PlayerOf(p.SideToMove())
		if err := g.Move(now, side, m.String(), ply, true); err != nil {
			t.Fatalf("ply %d %v: %v", ply, m, err)
		}
		if g.Status() != game.Playing {
			t.Fatalf("game ended at ply %d: %v", ply, g.Status())
		}
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(b))
	}
	return g, sizes, now
}

// TestSize_150PlyGame: the game is one store item written once per ply; the
// average write must stay within 2 WRU (1 WRU per started KB).
func TestSize_150PlyGame(t *testing.T) {
	_, sizes, _ := randomGame(t, 150)
	total, wru, largest := 0, 0, 0
	for _, s := range sizes {
		total += s
		wru += (s + itemOverhead + 1023) / 1024
		largest = max(largest, s)
	}
	avg := float64(total) / float64(len(sizes))
	avgWRU := float64(wru) / float64(len(sizes))
	t.Logf("150 plies: packed game average %.0f B, largest %d B; with %d B of item overhead %.2f WRU per write", avg, largest, itemOverhead, avgWRU)
	if avg+itemOverhead > 2048 || avgWRU > 2 {
		t.Errorf("average item %.0f B (%.2f WRU), want ≤ 2 KB and ≤ 2 WRU", avg+itemOverhead, avgWRU)
	}
}

// BenchmarkMovePath is the handler's CPU per move: decode the stored game at
// ply 100, apply a move in ICCS with a press, encode it again.
func BenchmarkMovePath(b *testing.B) {
	benchMove(b, func(m xiangqi.Move, _ *xiangqi.Position) string { return m.String() })
}

// BenchmarkMovePathChinese is the same with the move written in Chinese
// notation, which ParseAny tries after ICCS and WXF.
func BenchmarkMovePathChinese(b *testing.B) {
	benchMove(b, func(m xiangqi.Move, p *xiangqi.Position) string {
		s, err := chinese.Format(p, m)
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

func benchMove(b *testing.B, text func(xiangqi.Move, *xiangqi.Position) string) {
	g, sizes, now := randomGame(b, 100)
	stored, err := g.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	p := g.Position()
	next := p.LegalMoves()[0]
	mover := game.PlayerOf(p.SideToMove())
	move := text(next, p)
	b.ReportMetric(float64(sizes[len(sizes)-1]), "B/item")
	b.ReportAllocs()
	for b.Loop() {
		d, err := game.Decode(stored)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Move(now+5000, mover, move, 100, true); err != nil {
			b.Fatal(err)
		}
		if _, err := d.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}

var chinese, _ = notation.ByName("chinese")

// BenchmarkMovesInChinese is what ?notation=chinese adds to a first read of
// a 150-ply game: every move written in Chinese from the start.
func BenchmarkMovesInChinese(b *testing.B) {
	g, _, _ := randomGame(b, 150)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.MovesIn(chinese, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMovesInChineseSince is a poll of the same game with ?since=148:
// the two new moves only.
func BenchmarkMovesInChineseSince(b *testing.B) {
	g, _, _ := randomGame(b, 150)
	b.ReportAllocs()
	for b.Loop() {
		if m, err := g.MovesIn(chinese, 148); err != nil || len(m) != 2 {
			b.Fatal(m, err)
		}
	}
}

// BenchmarkMovePathRepeating is the dearest move: the position has occurred
// before, so the engine's History is replayed since the last capture for the
// G-6 cycle facts (a 4-ply cycle repeated 4 times, then a fifth begins).
func BenchmarkMovePathRepeating(b *testing.B) {
	g := newGame(b, game.Setup{Control: preset(b, "untimed")})
	run(b, g, cycles(4))
	stored, err := g.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d, err := game.Decode(stored)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Move(t0, red, "h0g2", 16, true); err != nil {
			b.Fatal(err)
		}
		if _, err := d.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}
