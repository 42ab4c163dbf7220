package httpapi

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// StoreLongGame stores a standalone game of plies quiet moves, as the
// handlers would have stored it move by move, and returns its id and seat
// tokens: tests of the moves cap need a game longer than any test would play
// over HTTP.
func StoreLongGame(t *testing.T, st *store.Store, plies int) (gid, red, black string) {
	t.Helper()
	ctrl, _ := clock.Preset("untimed")
	g, err := game.New(game.Setup{Control: ctrl, StartMs: 1_700_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 2000))
	for ply := range plies { // quiet moves, no checks: the pieces stay, so the game goes on
		p := g.Position()
		var quiet, other []xiangqi.Move
		for _, m := range p.LegalMoves() {
			q := p.Clone()
			switch {
			case q.Play(m) != nil || q.Status() != xiangqi.Ongoing:
			case p.Captured(m) == xiangqi.NoPiece && !p.GivesCheck(m):
				quiet = append(quiet, m)
			default:
				other = append(other, m)
			}
		}
		if len(quiet) == 0 {
			quiet = other
		}
		if len(quiet) == 0 {
			t.Fatalf("ply %d: no move that keeps the game going in %s", ply, p.FEN())
		}
		m := quiet[rng.IntN(len(quiet))]
		if err := g.Move(1_700_000_000_000+int64(ply)*1000, game.PlayerOf(p.SideToMove()), m.String(), ply, true); err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
	}
	gid = service.NewID('g')
	red, redHash := service.NewToken(gid, "red")
	black, blackHash := service.NewToken(gid, "black")
	rec, err := games.Encode(&store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame}, games.Link{Red: "red", Black: "black", RedHash: redHash, BlackHash: blackHash}, g)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(t.Context(), rec); err != nil {
		// Nobody else knows this fresh id: a conflict here is the SDK's retry
		// of a create whose answer was lost under a loaded -race run. The
		// item stored is then this one.
		got, gerr := st.Get(t.Context(), rec.PK, rec.SK)
		if !errors.Is(err, store.ErrConflict) || gerr != nil || !bytes.Equal(got.Doc, rec.Doc) {
			t.Fatal(err)
		}
	}
	return gid, red, black
}

// SmallPages makes a round's page hold tables tables and the players
// list's page players players for the rest of the test, so a test of a
// few players sees the paging of a large event.
func SmallPages(t *testing.T, tables, players int) {
	t.Helper()
	oldTables, oldPlayers := roundPageTables, playerPageRows
	roundPageTables, playerPageRows = tables, players
	t.Cleanup(func() { roundPageTables, playerPageRows = oldTables, oldPlayers })
}
