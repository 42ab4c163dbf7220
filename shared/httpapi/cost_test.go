package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// playQuiet plays n plies of legal moves chosen by a seeded PRNG, never one
// that ends the game, pressing after 2–40 s, and calls each(ply) after every
// move — a realistic game for size and cost measurements.
func playQuiet(tb testing.TB, g *game.Game, n int, each func(ply int, now int64)) {
	rng := rand.New(rand.NewPCG(4, 150))
	now := int64(1_700_000_000_000)
	for ply := 0; ply < n; ply++ {
		p := g.Position()
		var quiet []xiangqi.Move
		for _, m := range p.LegalMoves() {
			q := p.Clone()
			capture := q.Captured(m) != xiangqi.NoPiece
			if q.Play(m) != nil || q.Status() != xiangqi.Ongoing || q.DeadPosition() || capture && rng.IntN(2) == 0 {
				continue
			}
			quiet = append(quiet, m)
		}
		m := quiet[rng.IntN(len(quiet))]
		now += 2000 + rng.Int64N(38000)
		if err := g.Move(now, game.PlayerOf(p.SideToMove()), m.String(), ply, true); err != nil {
			tb.Fatalf("ply %d: %v", ply, err)
		}
		each(ply, now)
	}
}

func eventLink() games.Link {
	return games.Link{Tournament: service.NewID('t'), Round: 7, Table: 112, Red: service.NewID('p'), Black: service.NewID('p'),
		RedHash: service.HashToken("a"), BlackHash: service.HashToken("b")}
}

// TestGameItemCost: a 150-ply event game is written once per ply; each write
// must average at most 2 WRU (one per started KB of the whole item, keys and
// attribute names included).
func TestGameItemCost(t *testing.T) {
	ctrl, _ := clock.Preset("90/40+15/10")
	g, err := game.New(game.Setup{Control: ctrl, StartMs: 1_700_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	link := eventLink()
	gid := service.GameID(service.HashToken("key"), link.Tournament, 7, 112, 1)
	var total, wru, largest int
	playQuiet(t, g, 150, func(int, int64) {
		rec, err := games.Encode(&store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame, Version: 149}, link, g)
		if err != nil {
			t.Fatal(err)
		}
		size := rec.Size()
		total += size
		wru += (size + 1023) / 1024
		largest = max(largest, size)
	})
	t.Logf("150-ply event game: item average %d B, largest %d B, %.2f WRU per move write on average", total/150, largest, float64(wru)/150)
	if float64(wru)/150 > 2 {
		t.Fatalf("average %.2f WRU per write, want ≤ 2", float64(wru)/150)
	}
}

// BenchmarkMoveHandlerCPU is the handler's CPU per move without the store:
// decode the request, decode the stored item at ply 100, apply the move with
// a press, encode the item and the JSON view. Target: ≤ 200 µs.
func BenchmarkMoveHandlerCPU(b *testing.B) {
	ctrl, _ := clock.Preset("90/40+15/10")
	g, _ := game.New(game.Setup{Control: ctrl, StartMs: 1_700_000_000_000})
	var now int64
	playQuiet(b, g, 100, func(_ int, at int64) { now = at })
	link := eventLink()
	rec, err := games.Encode(&store.Record{PK: "G#x", SK: store.GameSK, Kind: store.KindGame}, link, g)
	if err != nil {
		b.Fatal(err)
	}
	stored := bytes.Clone(rec.Doc)
	move := g.Position().LegalMoves()[0].String()
	body := []byte(`{"move":"` + move + `","ply":100,"press":true}`)
	b.ReportAllocs()
	for b.Loop() {
		var in moveIn
		if err := json.Unmarshal(body, &in); err != nil {
			b.Fatal(err)
		}
		sg, err := games.Decode("x", &store.Record{Doc: stored})
		if err != nil {
			b.Fatal(err)
		}
		if err := sg.Game.Move(now+5000, game.PlayerOf(xiangqi.Red), in.Move, *in.Ply, in.Press); err != nil {
			b.Fatal(err)
		}
		if _, err := games.Encode(sg.Rec, sg.Link, sg.Game); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(games.ViewOf(sg, now+5000, 0)); err != nil {
			b.Fatal(err)
		}
	}
}
